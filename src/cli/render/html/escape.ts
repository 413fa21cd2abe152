/**
 * Text made safe inside HTML (element content and quoted attributes).
 * @example esc('<a href="x">') // "&lt;a href=&quot;x&quot;&gt;"
 */
export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
