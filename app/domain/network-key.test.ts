import { describe, expect, it } from "vitest";
import { networkKey } from "./network-key";

describe("networkKey", () => {
  it("keeps an IPv4 address whole, mapped into IPv6 or not", () => {
    expect(networkKey("203.0.113.7")).toBe("203.0.113.7");
    expect(networkKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(networkKey("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(networkKey("203.0.113.8")).not.toBe(networkKey("203.0.113.7"));
  });

  it("cuts an IPv6 address to its /64, however it is written", () => {
    expect(networkKey("2001:db8:0:1::5")).toBe("2001:db8:0:1::/64");
    expect(networkKey("2001:0db8:0000:0001:ffff:0:0:9")).toBe("2001:db8:0:1::/64");
    expect(networkKey(" 2001:DB8:0:1::6 ")).toBe("2001:db8:0:1::/64");
    expect(networkKey("2001:db8:0:2::5")).not.toBe(networkKey("2001:db8:0:1::5"));
  });

  it("gives a key back unchanged, and keeps what is not an address as given", () => {
    expect(networkKey(networkKey("2001:db8:0:1::5"))).toBe("2001:db8:0:1::/64");
    expect(networkKey(networkKey("::ffff:203.0.113.7"))).toBe("203.0.113.7");
    expect(networkKey("unknown")).toBe("unknown");
  });
});
