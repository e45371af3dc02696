package Geometry;

/** The ABS function Geometry.hypot (examples/builtin/Builtin.abs): a Float is a double. */
public final class hypot_f {
    private hypot_f() {}

    public static double apply(double a, double b) {
        return Math.hypot(a, b);
    }
}
