package cogs.session

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import cogs.session.ast.{Module, TypeDecl}
import cogs.session.check.{Checker, Expand, Races}
import cogs.session.fsm.Fsm
import cogs.session.parse.Parser
import cogs.session.project.{LocalProtocol, Projection}

/**
 * A global protocol that passed every check, with its projection on each role: the local
 * protocol and the role's deterministic machine.
 */
final class ProjectedProtocol private[session] (
    val module: String,
    val name: String,
    val roles: List[String],
    val locals: Map[String, LocalProtocol],
    val fsms: Map[String, Fsm],
    val types: Map[String, TypeDecl],
    /** Hazards that do not make the protocol unusable: mailbox races (see cogs.session.check.Races). */
    val warnings: List[Diagnostic]) {

  def local(role: String): LocalProtocol = locals.getOrElse(role, throw unknownRole(role))
  def fsm(role: String): Fsm = fsms.getOrElse(role, throw unknownRole(role))

  private def unknownRole(role: String) =
    new NoSuchElementException(s"protocol $name has no role '$role' (its roles: ${roles.mkString(", ")})")

  override def toString: String = s"protocol $module.$name(${roles.mkString(", ")})"
}

/** A protocol file that parsed and passed every well-formedness rule. */
final class ProtocolModule private (val ast: Module, val protocols: List[ProjectedProtocol]) {
  def name: String = ast.name

  /** The warnings of every protocol, each once, in the order of the file. */
  def warnings: List[Diagnostic] = Diagnostic.sorted(protocols.flatMap(_.warnings))

  def protocol(name: String): ProjectedProtocol = protocols.find(_.name == name).getOrElse(
    throw new NoSuchElementException(s"module ${ast.name} has no protocol '$name' (it has: ${protocols.map(_.name).mkString(", ")})"))
}

object ProtocolModule {

  /** Parse and check `text` (named `file` in messages): the module, or every error found. */
  def check(file: String, text: String): Either[List[Diagnostic], ProtocolModule] =
    Parser.parse(file, text).flatMap { m =>
      val declErrors = Checker.check(m)
      if (declErrors.nonEmpty) Left(declErrors)
      else {
        // Every protocol is checked as a root, so errors of one only ever used through `do` are found too.
        val results = m.protocols.map { p =>
          val (body, expErrors) = Expand.expand(m, p)
          if (expErrors.nonEmpty) Left(expErrors)
          else {
            val projected = p.roleNames.map(r => Projection.project(p.name.text, p.roleNames, body, r))
            val errs = projected.flatMap(_._2)
            if (errs.nonEmpty) Left(errs)
            else {
              val locals = projected.map(l => l._1.role -> l._1).toMap
              Right(new ProjectedProtocol(m.name, p.name.text, p.roleNames, locals,
                locals.map { case (r, l) => r -> Fsm.fromLocal(l) }, m.types.map(t => t.alias.text -> t).toMap, Races.check(body)))
            }
          }
        }
        val errors = results.collect { case Left(e) => e }.flatten
        if (errors.nonEmpty) Left(Diagnostic.sorted(errors))
        else Right(new ProtocolModule(m, results.collect { case Right(p) => p }))
      }
    }

  /** [[check]], throwing [[ProtocolException]] (whose message is the rendered errors) on errors. */
  def parse(file: String, text: String): ProtocolModule =
    check(file, text).fold(ds => throw new ProtocolException(ds, text), identity)

  /** Read and [[parse]] a `.scr` file. */
  def load(path: Path): ProtocolModule =
    parse(path.toString, new String(Files.readAllBytes(path), StandardCharsets.UTF_8))

  /** Read and [[check]] a `.scr` file. */
  def checkFile(path: Path): Either[List[Diagnostic], ProtocolModule] =
    check(path.toString, new String(Files.readAllBytes(path), StandardCharsets.UTF_8))
}
