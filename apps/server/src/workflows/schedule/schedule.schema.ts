/** A month view asks six weeks (42 days); three months is the most one request may ask. */
export const MAX_RANGE_DAYS = 93;

/** Days from `from` to `to`, both counted. */
export const rangeDays = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
