package io.corpora.ingest;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The addresses a URL ingest never connects to unless the origin is one of the tenant's {@code privateOrigins}: every
 * block of the IANA special-purpose address registries that is not globally reachable or is reserved, plus multicast
 * and the reserved class E space. Sources: the IANA IPv4 Special-Purpose Address Registry
 * (https://www.iana.org/assignments/iana-ipv4-special-registry/) and IPv6 Special-Purpose Address Registry
 * (https://www.iana.org/assignments/iana-ipv6-special-registry/), RFC 6890, RFC 1918, RFC 6598, RFC 3927, RFC 5737,
 * RFC 2544, RFC 5771 (multicast), RFC 1112 (240/4), RFC 4291 (IPv6 loopback, unspecified, mapped, compatible, link-local,
 * multicast), RFC 4193 (unique local), RFC 3849 and RFC 9637 (documentation), RFC 6666 (discard), RFC 2928 (2001::/23),
 * RFC 6052 and RFC 8215 (NAT64), RFC 3056 (6to4), RFC 3879 (deprecated site-local), RFC 9602 (SRv6 SIDs).
 *
 * <p>Three IPv6 forms carry an IPv4 address that the connection ends up reaching: IPv4-mapped ({@code ::ffff:0:0/96}),
 * NAT64 ({@code 64:ff9b::/96}) and 6to4 ({@code 2002::/16}). Those are judged by the IPv4 address they embed, so
 * {@code ::ffff:8.8.8.8} is allowed and {@code 2002:7f00:1::} (6to4 of 127.0.0.1) is not.
 */
final class SpecialPurposeAddresses {

    /** A block and what it is for, as the refusal names it. */
    record Entry(AddressBlock block, String purpose) {
        Entry(String cidr, String purpose) {
            this(AddressBlock.parse(cidr), purpose);
        }
    }

    static final List<Entry> IPV4 = List.of(
            new Entry("0.0.0.0/8", "\"this network\" (RFC 791)"),
            new Entry("10.0.0.0/8", "private-use (RFC 1918)"),
            new Entry("100.64.0.0/10", "shared address space, carrier-grade NAT (RFC 6598)"),
            new Entry("127.0.0.0/8", "loopback (RFC 1122)"),
            new Entry("169.254.0.0/16", "link-local, cloud metadata (RFC 3927)"),
            new Entry("172.16.0.0/12", "private-use (RFC 1918)"),
            new Entry("192.0.0.0/24", "IETF protocol assignments (RFC 6890)"),
            new Entry("192.0.2.0/24", "documentation TEST-NET-1 (RFC 5737)"),
            new Entry("192.88.99.0/24", "deprecated 6to4 relay anycast (RFC 7526)"),
            new Entry("192.168.0.0/16", "private-use (RFC 1918)"),
            new Entry("198.18.0.0/15", "benchmarking (RFC 2544)"),
            new Entry("198.51.100.0/24", "documentation TEST-NET-2 (RFC 5737)"),
            new Entry("203.0.113.0/24", "documentation TEST-NET-3 (RFC 5737)"),
            new Entry("224.0.0.0/4", "multicast (RFC 5771)"),
            new Entry("240.0.0.0/4", "reserved, and 255.255.255.255 limited broadcast (RFC 1112, RFC 919)"));

    static final List<Entry> IPV6 = List.of(
            new Entry("::/96", "unspecified, loopback and deprecated IPv4-compatible addresses (RFC 4291)"),
            new Entry("64:ff9b:1::/48", "local-use NAT64 (RFC 8215)"),
            new Entry("100::/64", "discard-only (RFC 6666)"),
            new Entry("2001::/23", "IETF protocol assignments, Teredo, benchmarking, ORCHID (RFC 2928)"),
            new Entry("2001:db8::/32", "documentation (RFC 3849)"),
            new Entry("3fff::/20", "documentation (RFC 9637)"),
            new Entry("5f00::/16", "segment routing SIDs (RFC 9602)"),
            new Entry("fc00::/7", "unique local (RFC 4193)"),
            new Entry("fe80::/10", "link-local (RFC 4291)"),
            new Entry("fec0::/10", "deprecated site-local (RFC 3879)"),
            new Entry("ff00::/8", "multicast (RFC 4291)"));

    /** IPv6 forms whose traffic reaches the IPv4 address embedded at {@code offset}. */
    private record Embedding(AddressBlock block, int offset, String form) {}

    private static final List<Embedding> EMBEDDINGS = List.of(
            new Embedding(AddressBlock.parse("::ffff:0:0/96"), 12, "IPv4-mapped"),
            new Embedding(AddressBlock.parse("64:ff9b::/96"), 12, "NAT64"),
            new Embedding(AddressBlock.parse("2002::/16"), 2, "6to4"));

    private SpecialPurposeAddresses() {}

    /** Why the address must not be connected to (its block and purpose), or empty for a globally reachable one. */
    static Optional<String> refusal(InetAddress address) {
        return refusal(address.getAddress());
    }

    static Optional<String> refusal(byte[] address) {
        if (address.length == 4) {
            return find(IPV4, address);
        }
        for (Embedding embedding : EMBEDDINGS) {
            if (embedding.block().contains(address)) {
                byte[] ipv4 = Arrays.copyOfRange(address, embedding.offset(), embedding.offset() + 4);
                return find(IPV4, ipv4).map(why -> embedding.form() + " (" + embedding.block() + ") of an IPv4 address in " + why);
            }
        }
        return find(IPV6, address);
    }

    private static Optional<String> find(List<Entry> entries, byte[] address) {
        for (Entry entry : entries) {
            if (entry.block().contains(address)) {
                return Optional.of(entry.block() + ", " + entry.purpose());
            }
        }
        return Optional.empty();
    }
}
