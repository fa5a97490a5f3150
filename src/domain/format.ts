/** How figures are shown: currency with $ and no decimals, hours 1 or 2 decimals, percentages whole, ratios 1 decimal. */

const currencyFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0, minimumFractionDigits: 0 });
const hoursFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 2 });
const wholeFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const ratioFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const formatCurrency = (value: number) => currencyFormat.format(value);
export const formatHours = (value: number) => hoursFormat.format(value);
export const formatPercent = (value: number) => `${wholeFormat.format(value)}%`;
export const formatRatio = (value: number) => ratioFormat.format(value);
/** Store configuration values: whole dollars, "-" when empty. */
export const formatCurrencyOrDash = (value: number | null | undefined) => (value === null || value === undefined ? '-' : formatCurrency(value));
const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
/** Counts (ROs, days worked, op codes): whole when whole, else up to 2 decimals. */
export const formatCount = (value: number) => countFormat.format(value);
