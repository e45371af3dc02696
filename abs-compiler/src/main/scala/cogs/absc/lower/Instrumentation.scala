package cogs.absc.lower

/**
 * What a monitor configuration observes, as far as code generation is concerned (the pipeline
 * itself reads the rest of the configuration at run time).
 *
 * @param observesClass  whether objects of this ABS class are traced
 * @param observesMethod whether process events of `Class.method` are traced
 * @param monitorConfig  the HOCON text of the pipeline, embedded in the generated `Main` so that
 *                       the compiled program runs monitored wherever it is started; None: no monitoring
 * @param sessions       the session protocols of the configuration: `new` of a class that plays a
 *                       role, and calls (asynchronous and synchronous) that may be protocol messages, are instrumented
 */
final case class Instrumentation(
    observesClass: String => Boolean,
    observesMethod: (String, String) => Boolean,
    monitorConfig: Option[String],
    sessions: List[cogs.absc.monitoring.SessionEntry] = Nil) {
  def enabled: Boolean = monitorConfig.isDefined

  /** Objects of `cls` play a role in some session protocol. */
  def playsRole(cls: String): Boolean = sessions.exists(_.rolesOf(cls).nonEmpty)

  /**
   * A call of `method` made by an object of class `caller` on an object of one of `callees` may be
   * a protocol message: a message from a role of `caller` to a role of a callee class is mapped to it.
   */
  def sessionCall(caller: String, method: String, callees: Iterable[String]): Boolean = sessions.exists { e =>
    val from = e.rolesOf(caller).toSet
    from.nonEmpty && e.calls.exists(c => c.method == method && from(c.msg.from) && callees.exists(_ == e.classOf(c.msg.to)))
  }
}

object Instrumentation {
  /** No monitoring: the generated code has no instrumentation at all. */
  val Off: Instrumentation = Instrumentation(_ => false, (_, _) => false, None)
}
