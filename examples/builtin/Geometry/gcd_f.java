package Geometry;

import java.math.BigInteger;

/** The ABS function Geometry.gcd (examples/builtin/Builtin.abs): an ABS Int, of any size, is a BigInteger. */
public final class gcd_f {
    private gcd_f() {}

    public static BigInteger apply(BigInteger a, BigInteger b) {
        return a.gcd(b);
    }
}
