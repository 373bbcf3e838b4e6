// toJsonAmount: THE place a bigint of minor units becomes a JSON number (pinned-wave3 §1.4).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { AmountOutOfRangeError, amountsWithin, toJsonAmount } from "./base-amounts";
import { MAX_EXACT_MINOR } from "./money";

describe("toJsonAmount", () => {
  it("answers every amount within ±(2^53 − 1) exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_EXACT_MINOR, max: MAX_EXACT_MINOR }), (value) => {
        expect(BigInt(toJsonAmount(value, "x_minor"))).toBe(value);
      }),
    );
    expect(toJsonAmount(MAX_EXACT_MINOR, "x_minor")).toBe(Number.MAX_SAFE_INTEGER);
    expect(toJsonAmount(-MAX_EXACT_MINOR, "x_minor")).toBe(-Number.MAX_SAFE_INTEGER);
  });

  it("refuses one beyond it with 422 amount_out_of_range naming the field, never a rounded number", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MAX_EXACT_MINOR + 1n, max: MAX_EXACT_MINOR * 1000n }), fc.boolean(), (magnitude, negative) => {
        const value = negative ? -magnitude : magnitude;
        let thrown: unknown;
        try {
          toJsonAmount(value, "totals.run_rate_in_minor");
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(AmountOutOfRangeError);
        const error = thrown as AppError;
        expect(error.code).toBe("amount_out_of_range");
        expect(error.status).toBe(422);
        expect(error.details).toEqual({ field: "totals.run_rate_in_minor" });
      }),
    );
  });

  it("a part built by another read model names the figure within the part", async () => {
    await expect(amountsWithin("summary_30d", Promise.reject(new AmountOutOfRangeError("revenue_minor")))).rejects.toMatchObject({
      code: "amount_out_of_range",
      details: { field: "summary_30d.revenue_minor" },
    });
    const other = new AppError("fx_unavailable");
    await expect(amountsWithin("summary_30d", Promise.reject(other))).rejects.toBe(other);
    await expect(amountsWithin("summary_30d", Promise.resolve(7))).resolves.toBe(7);
  });
});
