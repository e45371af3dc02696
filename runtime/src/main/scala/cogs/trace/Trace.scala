package cogs.trace

import cogs.runtime.{CogRuntime, TraceHooks}

/** Emitting events of the program's own (`TraceEvent.User`) into the trace. */
object Trace {
  /**
   * Emit `User(name, payload)` from the running process's object. Does nothing (and returns
   * false) when the object is not traced or the runtime does not trace at all, so models can
   * leave their `emit` calls in.
   */
  def emit(name: String, payload: Any*): Boolean = TraceHooks.user(name, payload)

  /** From code outside every process (a `main` thread), attributed to `outside#0` of `rt`. */
  def emitOutside(rt: CogRuntime, name: String, payload: Any*): Boolean = TraceHooks.userOutside(rt, name, payload)
}
