/**
 * Numbers inside a figure's working ("CP ELR = $12,450.00 / 68.2 h = $182.55"): more
 * precise than the tiles' headlines, so a manager can redo the sum by hand.
 */

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const money2 = (value: number) => money.format(value);
export const num1 = (value: number) => oneDecimal.format(value);
export const num2 = (value: number) => twoDecimals.format(value);
