import { describe, expect, it } from "vitest";
import { signPayload, verifySignature } from "./signature";

describe("test provider webhook signature", () => {
  const body = JSON.stringify({ id: "evt_test_1", type: "checkout.session.completed" });
  const now = 1_800_000_000;

  it("accepts its own signature", () => {
    expect(verifySignature(body, signPayload(body, "s3cret", now), "s3cret", now + 10)).toBe(true);
  });

  it("refuses a changed body, another secret, an old or a missing signature", () => {
    const header = signPayload(body, "s3cret", now);
    expect(verifySignature(body.replace("1", "2"), header, "s3cret", now)).toBe(false);
    expect(verifySignature(body, header, "other", now)).toBe(false);
    expect(verifySignature(body, header, "s3cret", now + 301)).toBe(false);
    expect(verifySignature(body, null, "s3cret", now)).toBe(false);
    expect(verifySignature(body, "t=abc,v1=zz", "s3cret", now)).toBe(false);
  });
});
