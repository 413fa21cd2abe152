import { describe, expect, it } from "vitest";
import { Duration, formatDuration, hours, milliseconds, minutes, parseDuration, seconds } from "../../src/core/duration.js";

describe("Duration", () => {
  it("builds durations from units", () => {
    expect(milliseconds(250)).toBe(250);
    expect(seconds(10)).toBe(10_000);
    expect(minutes(75)).toBe(4_500_000);
    expect(hours(2)).toBe(7_200_000);
  });

  it.each([
    ["30s", 30_000], ["30sec", 30_000], ["1second", 1000], ["2seconds", 2000],
    ["5m", 300_000], ["75min", 4_500_000], ["1minute", 60_000], ["3minutes", 180_000],
    ["1h", 3_600_000], ["2hr", 7_200_000], ["1hour", 3_600_000], ["2hours", 7_200_000],
    ["1h30m", 5_400_000], ["1h 30m 10s", 5_410_000], [" 45s ", 45_000],
  ])("parses %j", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    expect(Duration.parse(text)).toBe(ms);
  });

  it.each(["", "75", "min", "5 parsecs", "1h30", "-5s", "5s!", "1.5.2h"])("rejects %j naming the text", (text) => {
    expect(() => parseDuration(text)).toThrow(`invalid duration "${text}"`);
  });

  it("refuses negative and non-finite amounts", () => {
    expect(() => seconds(-1)).toThrow(/non-negative/);
    expect(() => minutes(Number.NaN)).toThrow(/finite/);
  });

  it("formats the way errors and progress print them", () => {
    expect(formatDuration(450)).toBe("450ms");
    expect(formatDuration(seconds(12))).toBe("12s");
    expect(formatDuration(seconds(192))).toBe("3m12s");
    expect(formatDuration(minutes(75))).toBe("75m0s");
    expect(formatDuration(hours(2) + minutes(5))).toBe("2h5m0s");
    expect(formatDuration(minutes(75), { short: true })).toBe("75m");
    expect(formatDuration(hours(3), { short: true })).toBe("3h");
  });
});
