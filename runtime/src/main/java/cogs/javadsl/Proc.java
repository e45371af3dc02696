package cogs.javadsl;

import cogs.runtime.JavaSupport$;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * A description of (the rest of) a process, for Java: the same objects as Scala's
 * {@code cogs.runtime.Proc} (every process the runtime builds implements both), so a process
 * built here costs what a Scala one does, and the names are the Scala DSL's where Java allows.
 *
 * <p>Implemented by the runtime only: a class of your own that implements it cannot be run.
 *
 * <p>Processes that end without a value of their own ({@link #await(Guard)}, {@link #suspend()},
 * the loops) have the static type {@code Proc<?>}: their value is Scala's unit, not a
 * {@code Void} null, so Java code should not read it ({@code .map(u -> ...)} ignoring {@code u}
 * is fine; for a {@code Proc<Void>} write {@code .map(u -> null)}).
 */
public interface Proc<A> {

    /** Sequential composition: run this, then the process {@code f} makes of its result. */
    <B> Proc<B> flatMap(Function<? super A, ? extends Proc<B>> f);

    /** Run this, then {@code f} of its result. */
    <B> Proc<B> map(Function<? super A, ? extends B> f);

    /** Run this, drop its result, then run {@code next}. */
    <B> Proc<B> andThen(Proc<B> next);

    /** try/catch: a failure of this process is handled by the process {@code handler} returns (it may {@link #raise} again). */
    Proc<A> recoverWith(Function<? super Throwable, ? extends Proc<A>> handler);

    /** try/catch with a plain value. */
    Proc<A> recover(Function<? super Throwable, ? extends A> handler);

    /** try/finally: the finalizer's process runs whether this completes or fails (then the failure goes on). */
    Proc<A> guarantee(Supplier<? extends Proc<?>> finalizer);

    /** A finished process with result {@code a} (ABS {@code return a}). */
    static <A> Proc<A> done(A a) { return JavaSupport$.MODULE$.done(a); }

    /** The finished process with no result. */
    static Proc<?> unit() { return JavaSupport$.MODULE$.unit(); }

    /** Run {@code a} when the process reaches this point (not when the {@code Proc} is built). */
    static <A> Proc<A> delay(Supplier<? extends A> a) { return JavaSupport$.MODULE$.delay(a); }

    /** Build the process when it is reached: wrap the body of a method that calls itself synchronously. */
    static <A> Proc<A> defer(Supplier<? extends Proc<A>> p) { return JavaSupport$.MODULE$.defer(p); }

    /** A failed process (ABS {@code throw e}). */
    static <A> Proc<A> raise(Throwable e) { return JavaSupport$.MODULE$.raise(e); }

    /** ABS {@code await g}: suspend until the guard holds; the COG may run other processes meanwhile. */
    static Proc<?> await(Guard g) { return JavaSupport$.MODULE$.awaitGuard(g); }

    /** ABS {@code await f?} and then the value of {@code f} (its failure is raised in this process). */
    static <A> Proc<A> await(Fut<A> f) { return JavaSupport$.MODULE$.awaitFut(f); }

    /** ABS {@code await f?} alone: wait until {@code f} is resolved, without reading it (a failure is not raised). */
    static Proc<?> awaitResolved(Fut<?> f) { return JavaSupport$.MODULE$.awaitResolved(f); }

    /** ABS {@code suspend}: let the COG run other enabled processes, then continue. */
    static Proc<?> suspend() { return JavaSupport$.MODULE$.suspend(); }

    /**
     * Timed ABS {@code await duration(min, max)}: suspend this process until the simulated clock
     * advanced by at least {@code min} (and at most {@code max}); the COG runs others meanwhile.
     */
    static Proc<?> awaitDuration(cogs.runtime.SimTime min, cogs.runtime.SimTime max) { return JavaSupport$.MODULE$.awaitDuration(min, max); }

    /** {@link #awaitDuration(cogs.runtime.SimTime, cogs.runtime.SimTime)} in whole time units: no {@code SimTime} is built per wait. */
    static Proc<?> awaitDuration(long minUnits, long maxUnits) { return JavaSupport$.MODULE$.awaitDuration(minUnits, maxUnits); }

    /** Timed ABS {@code duration(min, max)}: block this process's COG for that much simulated time. */
    static Proc<?> duration(cogs.runtime.SimTime min, cogs.runtime.SimTime max) { return JavaSupport$.MODULE$.duration(min, max); }

    /** ABS {@code [Cost: amount]}: consume Speed of this COG's deployment component (blocks the COG until paid). */
    static Proc<?> cost(cogs.runtime.SimTime amount) { return JavaSupport$.MODULE$.cost(amount); }

    /** ABS {@code f.get}: blocks this process's COG (not a thread) until {@code f} is resolved. */
    static <A> Proc<A> get(Fut<A> f) { return JavaSupport$.MODULE$.get(f); }

    /** ABS synchronous call {@code o.m(..)}: inline in the caller's COG (even if it suspends); across COGs, send then get. */
    static <T extends cogs.runtime.Active, A> Proc<A> sync(T target, String method, Function<? super T, ? extends Proc<A>> call) {
        return JavaSupport$.MODULE$.sync(target, method, call);
    }

    /** {@code while (cond) body} with any scheduling points in {@code body}, in constant memory; the body's results are dropped. */
    static Proc<?> loopWhile(BooleanSupplier cond, Supplier<? extends Proc<?>> body) {
        return JavaSupport$.MODULE$.loopWhile(cond, body);
    }

    /** Run {@code body(i)} for i in 0 until n, in order, in constant memory, dropping the results. */
    static Proc<?> repeat(int n, IntFunction<? extends Proc<?>> body) { return JavaSupport$.MODULE$.repeat(n, body); }

    /** Run {@code body(x)} for each element, in order (ABS {@code foreach}), dropping the results. */
    static <X> Proc<?> foreach(Iterable<X> xs, Function<? super X, ? extends Proc<?>> body) {
        return JavaSupport$.MODULE$.foreach(xs, body);
    }

    /** Await every future in order and give their values (a failure is raised at the first failed one). */
    static <A> Proc<List<A>> awaitAll(List<? extends Fut<A>> futs) { return JavaSupport$.MODULE$.awaitAll(futs); }
}
