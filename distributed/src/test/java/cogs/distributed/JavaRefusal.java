package cogs.distributed;

/**
 * A Java user's exception that travels: marked {@link Wire}, with the one-String constructor
 * Jackson rebuilds a {@code Throwable} through (its message).
 */
public class JavaRefusal extends RuntimeException implements Wire {
    public JavaRefusal(String message) { super(message); }
}
