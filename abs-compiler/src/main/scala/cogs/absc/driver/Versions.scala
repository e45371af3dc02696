package cogs.absc.driver

/** Versions shown by `absc --version` and used in the cache key. */
object Versions {

  /** From the jar's manifest; `dev` when absc runs from a classes directory (tests, IDE). */
  lazy val absc: String = Option(classOf[Driver].getPackage.getImplementationVersion).getOrElse("dev")

  def scalaVersion: String = _root_.scala.util.Properties.versionNumberString

  def runtimeVersion: String =
    Option(classOf[cogs.runtime.CogRuntime].getPackage.getImplementationVersion).getOrElse("dev")

  def javaVersion: String = s"${System.getProperty("java.version")} (${System.getProperty("java.vm.name")})"
}
