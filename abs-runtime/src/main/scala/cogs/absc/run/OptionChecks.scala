package cogs.absc.run

import java.nio.file.{Files, Path}

import cogs.runtime.SimTime

/**
 * What a valid value of a run's option is, and what is said about one that is not: one definition
 * for both command lines that take them, absc's (`absc run`, `test`, `explore`: its options are
 * checked before anything is compiled) and a packaged program's ([[ProgramCommandLine]]: its
 * launcher passes the arguments through). Each check takes the text as given and answers the
 * value or the message (without a program name: each command line says whose it is).
 */
private[absc] object OptionChecks {

  /** `--workers N`: a whole number, at least 1. */
  def workers(text: String): Either[String, Int] =
    Some(text.trim).filter(_.matches("[0-9]{1,9}")).map(_.toInt).filter(_ >= 1)
      .toRight(s"--workers must be a whole number of at least 1, not '$text'")

  /** `--clock-limit T`: a whole number or a fraction `n/d` with `d` not 0; the text, trimmed. */
  def clockLimit(text: String): Either[String, String] = {
    val t = text.trim
    if (t.matches("[0-9]+(/[0-9]*[1-9][0-9]*)?")) Right(t)
    else Left(s"--clock-limit: '$text' is not a time (a whole number or a fraction such as 5/2)")
  }

  /** The simulated time of a clock limit that [[clockLimit]] accepted. */
  def clockLimitTime(checked: String): SimTime = checked.split('/') match {
    case Array(n) => SimTime.of(new java.math.BigInteger(n), java.math.BigInteger.ONE)
    case Array(n, d) => SimTime.of(new java.math.BigInteger(n), new java.math.BigInteger(d))
    case _ => throw new IllegalArgumentException(s"--clock-limit: '$checked' is not a time")
  }

  /** `--port PORT`: 0 (any free port) to 65535. */
  def port(text: String): Either[String, Int] =
    Some(text.trim).filter(_.matches("[0-9]{1,5}")).map(_.toInt).filter(_ <= 65535)
      .toRight(s"--port must be from 0 to 65535, not '$text'")

  /** `--record-format F`: `cogs` or `erlang`. */
  def recordFormat(text: String): Either[String, String] =
    if (text == "cogs" || text == "erlang") Right(text) else Left(s"--record-format must be 'cogs' or 'erlang', not '$text'")

  /** `--record`, `--replay` and `--record-format` together: what is wrong with the combination, if anything. */
  def schedule(record: Option[Any], replay: Option[Any], format: Option[String]): Option[String] =
    if (record.isDefined && replay.isDefined) Some("--record and --replay exclude each other")
    else if (format.isDefined && record.isEmpty) Some("--record-format needs --record FILE")
    else format.flatMap(recordFormat(_).left.toOption)

  /**
   * The Model API's options together: a page, directory or prefix needs a port, and the page and
   * directory must be there (`indexFile`, `staticDir` as the run will read them).
   */
  def modelApi(port: Option[Int], indexFile: Option[Path], staticDir: Option[Path], urlPrefix: Option[String]): Option[String] =
    if (indexFile.isDefined && port.isEmpty) Some("--modelapi-index-file needs --port")
    else if (indexFile.exists(f => !Files.isRegularFile(f))) Some(s"--modelapi-index-file: no such file: ${indexFile.get}")
    else if (staticDir.isDefined && port.isEmpty) Some("--modelapi-static-dir needs --port")
    else if (staticDir.exists(d => !Files.isDirectory(d))) Some(s"--modelapi-static-dir: no such directory: ${staticDir.get}")
    else if (urlPrefix.isDefined && port.isEmpty) Some("--url-prefix needs --port")
    else None
}
