package cogs.runtime.internal

import cogs.runtime.{Active, Fut, Guard, Proc}

/**
 * A process as frame code sees it (the runtime's `cogs.runtime.Process` is the one class that
 * implements it): the scheduling points a method in frame form names, the frames it links, and
 * the nesting of its plain synchronous calls. Every method here is called by the process's own
 * COG's main task while the process runs (see [[Frame]] for why that needs no hand-off).
 */
trait Process {
  /** Link `f` (the frame of a method that suspends) on the way out; returns [[Frame.Suspended]]. */
  def suspendedIn(f: Frame): AnyRef
  /**
   * Any other computation (a loop, a try, a call, written as a `Proc`) run by the interpreter from
   * frame code: the process goes on with `next` and the frame resumes with its value.
   */
  def run(next: Proc[_]): AnyRef
  /** `await f?` and then the value of `f` (its failure is raised): the frame resumes with the value. */
  def awaitFut(f: Fut[_]): AnyRef
  /** `await g`: the frame resumes (with `()`) once the guard holds. */
  def awaitGuard(g: Guard): AnyRef
  /** `suspend`: let the COG run the others that are enabled, then resume (with `()`). */
  def yieldNow(): AnyRef
  /** `f.get`: block the COG until `f` is resolved; the frame resumes with its value. */
  def getFut(f: Fut[_]): AnyRef

  // Scheduling points that may go on at once: unlike the ones above, which always name the point
  // and return Frame.Suspended, these return the point's value when it need not wait, so that the
  // caller links its frame only when it must; the caller tests the result for Frame.Suspended.
  // Waiting, the process parks (or blocks its COG) as with the `Proc` nodes of the same name.

  /**
   * `f.get` at ABS position `at` (null if none; deadlock reports name it): the value if `f` is
   * resolved (a failure is raised here, as a JVM exception), else [[Frame.Suspended]]; the COG
   * then blocks until `f` is resolved, and the frame resumes with the value (or is offered the failure).
   */
  def getValue(f: Fut[_], at: String): Any
  /** `await f?`: `()` if `f` is resolved, else [[Frame.Suspended]]; the frame resumes with `()` once it is. */
  def awaitResolved(f: Fut[_]): Any
  /**
   * `await g`: `()` if `g` holds now, else [[Frame.Suspended]]; the frame resumes with `()` once it
   * holds (a condition is evaluated again whenever the COG's state may have changed).
   */
  def awaitUntil(g: Guard): Any
  /**
   * A synchronous call of a `Proc` method (`o.m()` where `m` is written with `Proc`): it always
   * goes through the interpreter, so the caller suspends here and its frame resumes with the
   * callee's value. On an object of another COG it is a send and a `get`, as `Proc.sync` is.
   */
  def callProc[T <: Active](target: T, label: String, call: T => Proc[Any]): AnyRef
  /**
   * A synchronous call of a method in frame form given as data: on this COG's object it runs now,
   * a plain JVM call (or a pending call if too deep, see [[enter]]); on another COG's object it is
   * a send and a `get` (the frame resumes with the value).
   */
  def callFrames(target: Active, label: String, call: FrameCall): Any
  /**
   * Before a plain synchronous call in frame form (`this.m(p, ..)`): true if it may be made on the
   * JVM stack (then [[exit]] after it, also when it throws); false at [[Frame.MaxDepth]] nested
   * calls, when the call site returns [[pendingCall]] instead, so that a million-deep recursion
   * unwinds into frames and goes on from an empty JVM stack (the trampoline).
   */
  def enter(): Boolean
  def exit(): Unit
  /** The call the slice loop makes next, on an empty JVM stack; the caller links its frame. */
  def pendingCall(target: Active, call: FrameCall): AnyRef
  /** The callee of the process's call (the object whose method it runs), until it ended successfully. */
  def target: Active
  /** Frames on the process's stack (tests check that loops keep it constant). */
  def depth: Int
}

/**
 * The frame form of a method that may suspend (docs/runtime-design.md, section 3; "Step 4, as
 * built"). **For code generators and hand-written runtime-level code**, not for users: a method in
 * frame form is an ordinary JVM method that takes the running [[Process]] as an extra parameter
 * and returns either its value or [[Frame.Suspended]]. It allocates a `Frame` only when it really
 * suspends, on the way out: the frame holds the locals live across the suspension point and a
 * resume label, and is linked with `return p.suspendedIn(frame)`. A synchronous call that finishes
 * without suspending is a plain JVM call and allocates nothing.
 *
 * The innermost suspending method first names its scheduling point (`p.awaitFut(f)`,
 * `p.awaitGuard(g)`, `p.yieldNow()`, `p.getFut(f)`, `p.callProc(..)`, or a pending synchronous
 * call, see `Process.callFrames`), which returns `Suspended`, or asks for one that may go on at
 * once (`p.getValue(f, at)`, `p.awaitResolved(f)`, `p.awaitUntil(g)`), which returns `Suspended`
 * only when it must wait; each caller on the way out links its own frame. The COG's slice loop then runs the scheduling point and afterwards resumes the frames
 * innermost first: `v = frame.resume(p, in)`; a value goes to the next frame outward. A JVM
 * exception thrown by `resume` is offered to the next frame outward through [[fail]] (whose default
 * rethrows), so a try/catch around a suspension point is a `fail` that runs the handler.
 *
 * Frames share the process's stack with the `Proc` interpreter's nodes, so `Proc` code and frame
 * code call each other synchronously in both directions (`Process.callProc`, [[Proc.frames]]).
 *
 * Threads: a frame is created, linked, resumed and dropped only by its COG's main task. It reaches
 * another thread only inside its process, which the inbox or the run-state word hands over with
 * release/acquire order (as the `Proc` node stack always was): no new hand-off.
 *
 * In `cogs.runtime.internal` (issue 26, step 6): public, because absc's generated Scala is frame
 * code (step 7), but not part of the API a user of the runtime programs against.
 */
abstract class Frame {
  /** Go on after the suspension: `in` is the value of the scheduling point or of the inner call. */
  def resume(p: Process, in: Any): Any

  /** An exception raised in the inner frames (or the scheduling point): handle it or rethrow. */
  def fail(p: Process, e: Throwable): Any = throw e
}

object Frame {
  /** What a method in frame form returns when it suspended: never a value of the program. */
  val Suspended: AnyRef = new AnyRef { override def toString = "Frame.Suspended" }

  /**
   * Plain nested synchronous calls of frame code allowed on the JVM stack (`Process.enter`); a
   * deeper call becomes a pending call that the slice loop starts on an empty stack (the
   * trampoline). A few hundred JVM frames are far below any thread's stack.
   */
  final val MaxDepth = 256
}

/**
 * A call of a method in frame form, as data: the entry of a process (`Cogs.send(o, "m", call)`
 * starts it), a pending call of the trampoline, or a frame method called from `Proc` code
 * ([[Proc.frames]]). As a function it gives the `Proc` node that runs it, so it can go wherever a
 * `Proc` method's call goes; the slice loop recognises it and runs it without that node.
 */
abstract class FrameCall extends (Active => Proc[Any]) {
  /** Run the method on `self`, in process `p`: its value or [[Frame.Suspended]]. */
  def run(p: Process, self: Active): Any
  final def apply(self: Active): Proc[Any] = new Proc.CallFrames(self, this)
  /** This call on `self` as a computation of type `Proc[A]` (the method's `Proc` face). */
  final def on[A](self: Active): Proc[A] = new Proc.CallFrames(self, this).asInstanceOf[Proc[A]]
}

object FrameCall {
  /**
   * `call` on `self` as a computation of type `Proc[A]`: how generated code gives a method in frame
   * form its `Proc` face, with the call written as a lambda (`FrameCall.on[A](this) { (p, _) => m(p, x) }`).
   */
  def on[A](self: Active)(call: FrameCall): Proc[A] = call.on[A](self)

  /**
   * `call` as the message of an asynchronous call on an object of type `T` (what `send` and
   * `Proc.sync` take): the slice loop runs it with no `Proc` node, and applied as a function it
   * is the method's `Proc` face. The cast is free: a `FrameCall` is an `Active => Proc[Any]`.
   */
  def message[T <: Active, R](call: FrameCall): T => Proc[R] = call.asInstanceOf[T => Proc[R]]
}
