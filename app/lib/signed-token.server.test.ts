import { describe, expect, it } from "vitest";
import { readToken, signToken } from "./signed-token.server";

describe("signed tokens", () => {
  const secret = "secret-de-test-0123456789";

  it("gives back what was signed", () => {
    expect(readToken(signToken({ t: "abc", p: 7, e: 123 }, secret), secret)).toEqual({ t: "abc", p: 7, e: 123 });
  });

  it("refuses an edited payload, another secret's token and garbage", () => {
    const token = signToken({ t: "abc", p: 7 }, secret);
    const [, signature] = token.split(".");
    const edited = `${Buffer.from(JSON.stringify({ t: "abc", p: 8 })).toString("base64url")}.${signature}`;
    expect(readToken(edited, secret)).toBeNull();
    expect(readToken(signToken({ t: "abc", p: 7 }, "un-autre-secret"), secret)).toBeNull();
    expect(readToken("n'importe quoi", secret)).toBeNull();
    expect(readToken(".", secret)).toBeNull();
  });
});
