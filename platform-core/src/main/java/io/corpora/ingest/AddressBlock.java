package io.corpora.ingest;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * One CIDR block of IPv4 or IPv6 addresses ({@code 10.0.0.0/8}, {@code fe80::/10}), parsed once from its text and
 * matched against raw address bytes. A block only ever contains addresses of its own family.
 */
record AddressBlock(String cidr, byte[] network, int prefixLength) {

    AddressBlock {
        Objects.requireNonNull(cidr, "cidr");
        if (network.length != 4 && network.length != 16) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + network.length);
        }
        if (prefixLength < 0 || prefixLength > network.length * 8) {
            throw new IllegalArgumentException("prefix /" + prefixLength + " does not fit " + cidr);
        }
        network = network.clone();
    }

    /** Parses {@code address/prefix} written with a numeric address (never resolved). */
    static AddressBlock parse(String cidr) {
        int slash = cidr.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("not a CIDR block (no /prefix): " + cidr);
        }
        String address = cidr.substring(0, slash);
        if (!address.contains(":") && !address.matches("[0-9.]+")) {
            throw new IllegalArgumentException("not a numeric address: " + cidr);
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(address).getAddress(); // numeric: parsed, not looked up
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address: " + cidr, e);
        }
        if (address.contains(":") && bytes.length == 4) {
            bytes = mapped(bytes); // the JDK folds ::ffff:a.b.c.d to IPv4; the block is meant as written
        }
        return new AddressBlock(cidr, bytes, Integer.parseInt(cidr.substring(slash + 1)));
    }

    /** Whether the address (4 or 16 raw bytes) lies in this block. */
    boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        int full = prefixLength / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (address[full] & mask) == (network[full] & mask);
    }

    /** {@code ::ffff:a.b.c.d} as 16 bytes. */
    static byte[] mapped(byte[] ipv4) {
        byte[] bytes = new byte[16];
        bytes[10] = (byte) 0xff;
        bytes[11] = (byte) 0xff;
        System.arraycopy(ipv4, 0, bytes, 12, 4);
        return bytes;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AddressBlock block && block.cidr.equals(cidr);
    }

    @Override
    public int hashCode() {
        return cidr.hashCode();
    }

    @Override
    public String toString() {
        return cidr;
    }
}
