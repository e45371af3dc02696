package cogs.absc.lower

/**
 * What a monitor configuration observes, as far as code generation is concerned (the pipeline
 * itself reads the rest of the configuration at run time).
 *
 * @param observesClass  whether objects of this ABS class are traced
 * @param observesMethod whether process events of `Class.method` are traced
 * @param monitorConfig  the HOCON text of the pipeline, embedded in the generated `Main` so that
 *                       the compiled program runs monitored wherever it is started; None: no monitoring
 */
final case class Instrumentation(
    observesClass: String => Boolean,
    observesMethod: (String, String) => Boolean,
    monitorConfig: Option[String]) {
  def enabled: Boolean = monitorConfig.isDefined
}

object Instrumentation {
  /** No monitoring: the generated code has no instrumentation at all. */
  val Off: Instrumentation = Instrumentation(_ => false, (_, _) => false, None)
}
