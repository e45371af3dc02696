package cogs.session.cli

import java.io.{PrintStream, PrintWriter}
import java.nio.file.{Files, NoSuchFileException, Path}
import java.util.concurrent.Callable

import picocli.CommandLine
import picocli.CommandLine.{Command, Option => Opt, Parameters}

import cogs.session.{ProtocolModule, ProjectedProtocol}

/**
 * The `session` command (launcher: `session/run`):
 * {{{
 * session check FILE...                                   well-formedness only
 * session project FILE [-p PROTOCOL] [-r ROLE] [-f local|fsm|dot]   projections
 * }}}
 * Exit status 0 when every file is well formed, 1 when one is not (its errors on stderr, as
 * `file:line:col: error: ...` with the source line), 2 for a bad command line.
 */
object Main {
  def main(args: Array[String]): Unit = System.exit(run(args, System.out, System.err))

  def run(args: Array[String], out: PrintStream, err: PrintStream): Int = {
    val cl = new CommandLine(new Top)
    cl.addSubcommand("check", new Check(out, err))
    cl.addSubcommand("project", new Project(out, err))
    cl.setOut(new PrintWriter(out, true))
    cl.setErr(new PrintWriter(err, true))
    cl.setParameterExceptionHandler { (e: CommandLine.ParameterException, _: Array[String]) =>
      err.println(s"session: ${e.getMessage}")
      err.println(s"session: see '${e.getCommandLine.getCommandSpec.qualifiedName()} --help' for the usage")
      2
    }
    cl.execute(args: _*)
  }

  /** The module in `file` (its warnings printed if `warnings`), or None after printing its errors (or why it cannot be read). */
  private[cli] def load(file: Path, err: PrintStream, warnings: Boolean): Option[ProtocolModule] =
    try {
      val text = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8)
      ProtocolModule.check(file.toString, text) match {
        case Right(m) =>
          if (warnings) m.warnings.foreach(w => err.println(w.render(text)))
          Some(m)
        case Left(ds) =>
          ds.foreach(d => err.println(d.render(text)))
          err.println(s"${ds.size} error${if (ds.size == 1) "" else "s"}")
          None
      }
    } catch {
      case _: NoSuchFileException => err.println(s"session: $file: no such file"); None
      case e: java.io.IOException => err.println(s"session: $file: cannot be read: $e"); None
    }
}

@Command(name = "session", mixinStandardHelpOptions = true, version = Array("session (Cogs)"),
  description = Array("Multiparty session protocols (a Scribble subset): check them and print their projections."),
  subcommands = Array(classOf[CommandLine.HelpCommand]))
private[cli] final class Top extends Callable[Integer] {
  def call(): Integer = { new CommandLine(this).usage(System.err); 2 }
}

@Command(name = "check", mixinStandardHelpOptions = true, description = Array("Check that protocol files are well formed; warn of mailbox races."))
private[cli] final class Check(out: PrintStream, err: PrintStream) extends Callable[Integer] {
  @Parameters(paramLabel = "FILE", arity = "1..*", description = Array("protocol files (.scr)"))
  var files: java.util.List[Path] = _

  def call(): Integer = {
    var ok = true
    files.forEach { f =>
      Main.load(f, err, warnings = true) match {
        case Some(m) => out.println(s"$f: ok (module ${m.name}: ${m.protocols.map(p => s"${p.name}(${p.roles.mkString(", ")})").mkString(", ")})")
        case None    => ok = false
      }
    }
    if (ok) 0 else 1
  }
}

@Command(name = "project", mixinStandardHelpOptions = true,
  description = Array("Print the projections of a protocol file: local protocols, FSMs as text, or FSMs in Graphviz dot."))
private[cli] final class Project(out: PrintStream, err: PrintStream) extends Callable[Integer] {
  @Parameters(paramLabel = "FILE", description = Array("protocol file (.scr)"))
  var file: Path = _

  @Opt(names = Array("-p", "--protocol"), description = Array("only this protocol (default: all)"))
  var protocol: String = _

  @Opt(names = Array("-r", "--role"), description = Array("only this role (default: all)"))
  var role: String = _

  @Opt(names = Array("-f", "--format"), description = Array("local, fsm or dot (default: ${DEFAULT-VALUE})"), defaultValue = "fsm")
  var format: String = _

  def call(): Integer = {
    if (!Set("local", "fsm", "dot")(format)) {
      err.println(s"session: unknown format '$format' (the formats: local, fsm, dot)")
      return 2
    }
    Main.load(file, err, warnings = false) match {
      case None => 1
      case Some(m) =>
        val ps: List[ProjectedProtocol] =
          if (protocol == null) m.protocols
          else m.protocols.filter(_.name == protocol) match {
            case Nil =>
              err.println(s"session: $file has no protocol '$protocol' (it has: ${m.protocols.map(_.name).mkString(", ")})")
              return 2
            case l => l
          }
        for (p <- ps) {
          val roles = if (role == null) p.roles else p.roles.filter(_ == role)
          if (roles.isEmpty) {
            err.println(s"session: protocol ${p.name} has no role '$role' (its roles: ${p.roles.mkString(", ")})")
            return 2
          }
          for (r <- roles) out.print(format match {
            case "local" => p.local(r).text
            case "fsm"   => p.fsm(r).text
            case "dot"   => p.fsm(r).dot
          })
        }
        0
    }
  }
}
