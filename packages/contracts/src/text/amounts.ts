import { z } from 'zod';

/**
 * Finite bounds on the numbers a client writes, so that a sum over every
 * record of a tenant stays finite and exact to the cent in a double
 * (`revenueUsd: -1e308` was taken, and a fold of two such was -Infinity,
 * which no JSON or numeric column holds).
 */
export const NUMBER_BOUNDS = {
  /** Dollars, either way (a refund is negative): a billion per record. */
  usd: 1_000_000_000,
  /** A measured value or an alert threshold, in the metric's unit. */
  measure: 1_000_000_000_000,
  /** A quantity of a meter (events, minutes, megabytes) in a billing plan. */
  quantity: 1_000_000_000_000,
} as const;

export const usdAmount = z.number().min(-NUMBER_BOUNDS.usd).max(NUMBER_BOUNDS.usd);
export const nonNegativeUsd = z.number().min(0).max(NUMBER_BOUNDS.usd);
export const measuredValue = z.number().min(-NUMBER_BOUNDS.measure).max(NUMBER_BOUNDS.measure);
export const meterQuantity = z.number().min(0).max(NUMBER_BOUNDS.quantity);
