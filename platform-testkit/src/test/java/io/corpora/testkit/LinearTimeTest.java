package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The protocol itself: quadratic work fails it, linear work passes, at sizes that run in seconds. */
class LinearTimeTest {

    private static final int SIZE = 4_000;
    private static volatile long sink;

    /** Compares every character with every later one: about 4× the cost at twice the size. */
    private static void quadratic(String input) {
        long equal = 0;
        for (int i = 0; i < input.length(); i++) {
            for (int j = i + 1; j < input.length(); j++) {
                equal += input.charAt(i) == input.charAt(j) ? 1 : 0;
            }
        }
        sink = equal;
    }

    private static void linear(String input) {
        long sum = 0;
        for (int i = 0; i < input.length(); i++) {
            sum += input.charAt(i);
        }
        sink = sum;
    }

    private static String text(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + i % 26));
        }
        return text.toString();
    }

    /**
     * Quadratic work fails, with the plain scan it was compared to in the message. Inputs this small get no scan
     * allowance: a scan of them takes tens of nanoseconds, and its noisy ratio (2.4 once, under load) once let a
     * quadratic 3.57 pass.
     */
    @Test
    void quadraticWorkFails() {
        AssertionError failed = assertThrows(AssertionError.class,
                () -> LinearTime.assertLinear("quadratic", LinearTimeTest::text, SIZE, LinearTimeTest::quadratic));
        assertTrue(failed.getMessage().startsWith("super-linear") && failed.getMessage().contains("a plain scan"), failed.getMessage());
    }

    @Test
    void linearWorkPasses() {
        LinearTime.Measurement measured = LinearTime.assertLinear("linear", LinearTimeTest::text, SIZE, LinearTimeTest::linear);
        assertTrue(measured.ratio() < 2 * LinearTime.MAX_RATIO, measured.toString());
    }
}
