/** "27/11" from "2026-11-27": a day of the dashboard's chart and its table. */
export const shortDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
