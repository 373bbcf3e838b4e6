// Agents may be limited to address ranges (CIDR). Parsing and matching by ipaddr.js.
import ipaddr from "ipaddr.js";

export function isValidCidr(range: string): boolean {
  try {
    ipaddr.parseCIDR(range);
    return true;
  } catch {
    return ipaddr.isValid(range);
  }
}

/** True when `ip` is inside one of `ranges` (a bare address counts as a /32 or /128). */
export function ipAllowed(ip: string | null, ranges: string[]): boolean {
  if (ranges.length === 0) return true;
  if (!ip || !ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  // An IPv4 client seen through an IPv6 socket (::ffff:1.2.3.4) is the IPv4 address.
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  return ranges.some((range) => {
    try {
      const [network, bits] = range.includes("/")
        ? ipaddr.parseCIDR(range)
        : [ipaddr.parse(range), address.kind() === "ipv4" ? 32 : 128];
      return network.kind() === address.kind() && address.match(network, bits);
    } catch {
      return false;
    }
  });
}
