import ipaddr from "ipaddr.js";

/**
 * The client's network, the unit every per-address limit counts (rate limits, live streams, a
 * drop's unpaid orders and waiting-room tickets): an IPv4 address as is (an IPv4-mapped IPv6
 * address too), an IPv6 address cut to its /64, the block one subscriber usually gets and can
 * pick addresses from at will. Anything unreadable is kept as given (it still groups the same
 * requests). A key given again comes back unchanged.
 */
export function networkKey(clientIp: string): string {
  const given = clientIp.trim();
  if (!ipaddr.isValid(given)) return given;
  const address = ipaddr.process(given);
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}
