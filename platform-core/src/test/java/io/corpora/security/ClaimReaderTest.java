package io.corpora.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ClaimReaderTest {

    private static Map<String, Object> payload(Object... namesAndValues) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("sub", "ann");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            payload.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return payload;
    }

    @Test
    void wellFormedClaimsAreRead() {
        CallerClaims claims = ClaimReader.read(payload("tenant", "acme", "partition", "legal", "groups", List.of("reader", "writer"),
                "acl_groups", List.of("emea", "/org/legal")));
        assertEquals(new CallerClaims("acme", "legal", Set.of("reader", "writer"), Set.of("emea", "/org/legal")), claims);
    }

    @Test
    void absentClaimsAreAbsentAndGrantNothing() {
        CallerClaims claims = ClaimReader.read(payload());
        assertNull(claims.tenant());
        assertNull(claims.partition());
        assertEquals(Set.of(), claims.groups());
        assertEquals(Set.of(), claims.aclGroups());
    }

    @Test
    void emptyArraysAreAcceptedAsNoGroups() {
        CallerClaims claims = ClaimReader.read(payload("tenant", "acme", "groups", List.of(), "acl_groups", List.of()));
        assertEquals(Set.of(), claims.groups());
        assertEquals(Set.of(), claims.aclGroups());
    }

    @Test
    void theDefaultPartitionMayBeBoundButIsNoTenant() {
        assertEquals("_default", ClaimReader.read(payload("tenant", "acme", "partition", "_default")).partition());
        assertEquals("tenant", assertThrows(InvalidClaimException.class, () -> ClaimReader.read(payload("tenant", "_default"))).claim());
    }

    static Stream<Arguments> malformed() {
        Map<String, Object> object = Map.of("name", "eng");
        return Stream.of(
                Arguments.of("partition", List.of("eng"), "must be a string, got a JSON array"),
                Arguments.of("partition", 7, "must be a string, got a JSON number (7)"),
                Arguments.of("partition", true, "must be a string, got a JSON boolean (true)"),
                Arguments.of("partition", null, "must be a string, got null"),
                Arguments.of("partition", object, "must be a string, got a JSON object"),
                Arguments.of("partition", "", "got an empty string"),
                Arguments.of("partition", "ENG", "got the string \"ENG\""),
                Arguments.of("partition", "eng/../hr", "got the string \"eng/../hr\""),
                Arguments.of("partition", "x".repeat(65), "…"),
                Arguments.of("tenant", List.of("acme"), "must be a string, got a JSON array"),
                Arguments.of("tenant", 7L, "got a JSON number (7)"),
                Arguments.of("tenant", " acme", "got the string \" acme\""),
                Arguments.of("tenant", null, "got null"),
                Arguments.of("groups", "reader", "must be an array of strings, got the string \"reader\""),
                Arguments.of("groups", 7, "must be an array of strings, got a JSON number (7)"),
                Arguments.of("groups", object, "must be an array of strings, got a JSON object"),
                Arguments.of("groups", null, "must be an array of strings, got null"),
                Arguments.of("groups", List.of("reader", 7), "item 1 is a JSON number (7)"),
                Arguments.of("groups", List.of(""), "item 0 is an empty string"),
                Arguments.of("groups", List.of("reader", List.of("writer")), "item 1 is a JSON array"),
                Arguments.of("acl_groups", "legal", "must be an array of strings, got the string \"legal\""),
                Arguments.of("acl_groups", List.of(" "), "item 0 is a blank string"),
                Arguments.of("acl_groups", java.util.Arrays.asList("legal", null), "item 1 is null"),
                Arguments.of("acl_groups", List.of(object), "item 0 is a JSON object"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("malformed")
    void aPresentClaimOfTheWrongShapeIsRefusedNeverReadAsAbsent(String claim, Object value, String expected) {
        Map<String, Object> payload = payload("tenant", "acme", "groups", List.of("reader"));
        payload.put(claim, value);
        InvalidClaimException refused = assertThrows(InvalidClaimException.class, () -> ClaimReader.read(payload));
        assertEquals(claim, refused.claim());
        assertTrue(refused.getMessage().startsWith("the '" + claim + "' claim must be"), refused.getMessage());
        assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    }

    @Test
    void aLongOrControlCharacterValueIsAbbreviatedInTheMessage() {
        InvalidClaimException refused = assertThrows(InvalidClaimException.class,
                () -> ClaimReader.read(payload("partition", "Eng\u0000\n" + "y".repeat(5000))));
        assertTrue(refused.getMessage().length() < 200, refused.getMessage());
        assertTrue(refused.getMessage().contains("\"Eng??yyy"), refused.getMessage());
    }

    @Test
    void aCompactTokenIsReadFromItsPayload() {
        String token = compact("{\"sub\":\"ann\",\"tenant\":\"acme\",\"partition\":\"legal\",\"groups\":[\"reader\"],\"exp\":1}");
        assertEquals(new CallerClaims("acme", "legal", Set.of("reader"), Set.of()), ClaimReader.readCompact(token));
    }

    @Test
    void aClaimNamedTwiceRefusesTheWholeToken() {
        String token = compact("{\"tenant\":\"acme\",\"partition\":\"legal\",\"partition\":\"engineering\"}");
        InvalidClaimException refused = assertThrows(InvalidClaimException.class, () -> ClaimReader.readCompact(token));
        assertTrue(refused.getMessage().contains("Duplicate field 'partition'"), refused.getMessage());
    }

    @Test
    void somethingThatIsNotACompactJwsIsRefused() {
        Map<String, String> notTokens = new HashMap<>();
        notTokens.put("JWE (five parts)", "a.b.c.d.e");
        notTokens.put("no payload", "abc");
        notTokens.put("payload not base64url", "e30.***.sig");
        notTokens.put("payload an array", compact("[1,2]"));
        notTokens.put("payload null", compact("null"));
        notTokens.forEach((what, token) -> assertThrows(InvalidClaimException.class, () -> ClaimReader.readCompact(token), what));
    }

    private static String compact(String payloadJson) {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return base64.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(payloadJson.getBytes(StandardCharsets.UTF_8)) + ".c2ln";
    }
}
