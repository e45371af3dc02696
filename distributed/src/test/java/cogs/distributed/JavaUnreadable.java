package cogs.distributed;

/**
 * Marked {@link Wire}, but Jackson cannot rebuild it: a {@code Throwable} needs a constructor of
 * no argument, of one String (the message), or one marked {@code @JsonCreator}. The caller gets a
 * {@link RemoteCallException} naming the class instead.
 */
public class JavaUnreadable extends RuntimeException implements Wire {
    public JavaUnreadable(int code) { super("unreadable " + code); }
}
