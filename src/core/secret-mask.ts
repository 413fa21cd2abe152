/** Placeholder printed instead of a secret value (plans, events, logs, errors and JSON all use it). */
export const SECRET_MASK = "[secret]";
