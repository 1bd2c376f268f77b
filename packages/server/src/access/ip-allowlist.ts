import { BlockList, isIP } from 'node:net';

const lists = new Map<string, BlockList>();

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is the IPv4 address. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function blockList(entries: readonly string[]): BlockList {
  const id = entries.join(',');
  const cached = lists.get(id);
  if (cached) return cached;
  const list = new BlockList();
  for (const entry of entries) {
    const [network = '', bits] = entry.split('/');
    const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(network, bits === undefined ? (family === 'ipv6' ? 128 : 32) : Number(bits), family);
  }
  lists.set(id, list);
  return list;
}

/** Whether a key with this allowlist (CIDRs; empty means any address) may be used from `address`. */
export function allowsAddress(allowlist: readonly string[], address: string): boolean {
  if (allowlist.length === 0) return true;
  const ip = plain(address);
  const family = isIP(ip);
  if (family === 0) return false;
  return blockList(allowlist).check(ip, family === 6 ? 'ipv6' : 'ipv4');
}
