package cogs.runtime

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
 * call, see `Process.callFrames`), which returns `Suspended`; each caller on the way out links its
 * own frame. The COG's slice loop then runs the scheduling point and afterwards resumes the frames
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
 * Public because absc's generated Scala is frame code (issue 26, step 7); step 6 is to move it,
 * with [[Process]], into `cogs.runtime.internal`.
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
