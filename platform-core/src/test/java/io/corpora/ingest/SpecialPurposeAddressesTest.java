package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every block of {@link SpecialPurposeAddresses} at its first and last address, and the addresses just outside it
 * (allowed unless they fall in a neighbouring block), plus the IPv6 forms judged by the IPv4 address they embed.
 */
class SpecialPurposeAddressesTest {

    @Test
    void everyIpv4BlockIsRefusedFromItsFirstToItsLastAddress() throws Exception {
        assertRefused(List.of("0.0.0.0", "0.255.255.255", "10.0.0.0", "10.255.255.255", "100.64.0.0", "100.127.255.255",
                "127.0.0.0", "127.0.0.1", "127.255.255.255", "169.254.0.0", "169.254.169.254", "169.254.255.255", "172.16.0.0",
                "172.31.255.255", "192.0.0.0", "192.0.0.255", "192.0.2.0", "192.0.2.255", "192.88.99.0", "192.88.99.255",
                "192.168.0.0", "192.168.255.255", "198.18.0.0", "198.19.255.255", "198.51.100.0", "198.51.100.255",
                "203.0.113.0", "203.0.113.255", "224.0.0.0", "239.255.255.255", "240.0.0.0", "255.255.255.254",
                "255.255.255.255"));
    }

    @Test
    void theIpv4AddressesJustOutsideEachBlockAreAllowed() throws Exception {
        assertAllowed(List.of("1.0.0.0", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255",
                "128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "191.255.255.255", "192.0.1.0",
                "192.0.3.0", "192.88.98.255", "192.88.100.0", "192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0",
                "198.51.99.255", "198.51.101.0", "203.0.112.255", "203.0.114.0", "223.255.255.255", "8.8.8.8", "93.184.216.34"));
    }

    @Test
    void everyIpv6BlockIsRefusedFromItsFirstToItsLastAddress() throws Exception {
        assertRefused(List.of("::", "::1", "::2", "::ffff", "::1.2.3.4", "::255.255.255.255",
                "64:ff9b:1::", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
                "100::", "100::ffff:ffff:ffff:ffff",
                "2001::", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff",
                "2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
                "3fff::", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff",
                "5f00::", "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "fec0::", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
    }

    @Test
    void theIpv6AddressesJustOutsideEachBlockAreAllowed() throws Exception {
        assertAllowed(List.of("::1:0:0", "64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff", "64:ff9b::1:0:0", "64:ff9b:2::",
                "ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "100:0:0:1::", "2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:200::",
                "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::", "3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::",
                "5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "5f01::", "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe00::",
                "2606:4700::1111", "2001:4860:4860::8888"));
    }

    @Test
    void mappedNat64And6to4AddressesAreJudgedByTheIpv4AddressTheyEmbed() throws Exception {
        // The JDK folds ::ffff:a.b.c.d into an IPv4 address; a resolver may hand over the 16-byte form itself.
        byte[] mappedLoopback = AddressBlock.mapped(new byte[] {127, 0, 0, 1});
        byte[] mappedPublic = AddressBlock.mapped(new byte[] {8, 8, 8, 8});
        assertTrue(SpecialPurposeAddresses.refusal(mappedLoopback).orElseThrow().contains("IPv4-mapped"));
        assertEquals(Optional.empty(), SpecialPurposeAddresses.refusal(mappedPublic));
        byte[] mappedBroadcast = AddressBlock.mapped(new byte[] {(byte) 255, (byte) 255, (byte) 255, (byte) 255});
        assertTrue(SpecialPurposeAddresses.refusal(mappedBroadcast).isPresent());
        assertRefused(List.of("::ffff:0.0.0.0", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
                "64:ff9b::", "64:ff9b::10.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b::ffff:ffff",
                "2002::", "2002:7f00:1::", "2002:a00:1::", "2002:c0a8:101::", "2002:a9fe:a9fe::1", "2002:ffff:ffff::"));
        assertAllowed(List.of("::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "64:ff9b::5db8:d822", "2002:808:808::", "2002:5db8:d822::1"));
        assertTrue(SpecialPurposeAddresses.refusal(InetAddress.getByName("2002:7f00:1::")).orElseThrow().contains("6to4"));
        assertTrue(SpecialPurposeAddresses.refusal(InetAddress.getByName("64:ff9b::a00:1")).orElseThrow().contains("NAT64"));
    }

    @Test
    void aRefusalNamesTheBlockAndItsPurpose() throws Exception {
        assertEquals("100.64.0.0/10, shared address space, carrier-grade NAT (RFC 6598)",
                SpecialPurposeAddresses.refusal(InetAddress.getByName("100.100.100.100")).orElseThrow());
    }

    @Test
    void blocksParseNumericAddressesOnlyAndMatchTheirOwnFamily() {
        AddressBlock block = AddressBlock.parse("172.16.0.0/12");
        assertTrue(block.contains(new byte[] {(byte) 172, 31, (byte) 255, (byte) 255}));
        assertFalse(block.contains(new byte[] {(byte) 172, 32, 0, 0}));
        assertFalse(block.contains(AddressBlock.mapped(new byte[] {(byte) 172, 16, 0, 1})), "an IPv6 address is not in an IPv4 block");
        assertArrayEquals(new byte[16], AddressBlock.parse("::/128").network());
        assertThrows(IllegalArgumentException.class, () -> AddressBlock.parse("example.com/8"), "never resolved");
        assertThrows(IllegalArgumentException.class, () -> AddressBlock.parse("10.0.0.0"));
        assertThrows(IllegalArgumentException.class, () -> AddressBlock.parse("10.0.0.0/33"));
    }

    private static void assertRefused(List<String> addresses) throws Exception {
        for (String address : addresses) {
            assertTrue(SpecialPurposeAddresses.refusal(InetAddress.getByName(address)).isPresent(), address + " must be refused");
        }
    }

    private static void assertAllowed(List<String> addresses) throws Exception {
        for (String address : addresses) {
            Optional<String> refusal = SpecialPurposeAddresses.refusal(InetAddress.getByName(address));
            assertEquals(Optional.empty(), refusal, address + " must be allowed");
        }
    }
}
