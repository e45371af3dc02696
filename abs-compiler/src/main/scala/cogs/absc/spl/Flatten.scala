package cogs.absc.spl

import scala.collection.mutable

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic
import cogs.absc.parse.Parser

/**
 * The flattening phase: `parse -> flatten -> typecheck -> lower -> print`. A pure function from
 * the parsed program (its modules plus its deltas, product line, products and feature model) and
 * an optional product name to a plain core program, with no product line part left:
 *
 *  - no product: the core, the modules as written (as the reference toolchain does without `-p`);
 *  - product P: P's features (product expressions evaluated), checked against the feature model;
 *    the deltas whose `when` condition P satisfies, ordered by their `after` clauses, each applied
 *    in turn with its parameters bound to the product's attribute values.
 *
 * Both also give the module `ABS.Productline` (the data type `Feature` of the product line's
 * features, `product_features()`, `product_name()`) to a program that imports from it.
 */
object Flatten {

  /** Why there is no flattened program. */
  sealed trait Failure
  /** Errors located in the sources. */
  final case class Errors(diagnostics: List[Diagnostic]) extends Failure
  /** The product asked for does not exist (a command-line error, with no source position). */
  final case class NoSuchProduct(message: String) extends Failure

  val ProductlineModule = "ABS.Productline"

  def flatten(units: List[CompilationUnit], product: Option[String]): Either[Failure, List[CompilationUnit]] = {
    if (product.isEmpty && units.forall(_.spl.isEmpty)) return Right(units ++ productlineUnit(units, Nil, None))
    val pl = new ProductLine(units)
    if (pl.errors.nonEmpty) return Left(Errors(pl.errors))
    product match {
      case None => Right(core(units) ++ productlineUnit(units, pl.line.toList.flatMap(_.featureNames), None))
      case Some(name) => pl.products.get(name) match {
        case None =>
          Left(NoSuchProduct(
            if (pl.productNames.isEmpty) s"product $name: the model declares no products"
            else s"the model has no product '$name'${cogs.absc.typecheck.Suggest.hint(name, pl.productNames)}; its products: ${pl.productNames.mkString(", ")}"))
        case Some(p) => forProduct(units, pl, p).left.map(Errors)
      }
    }
  }

  /** The declared products, each with its features (product expressions evaluated). */
  def products(units: List[CompilationUnit]): Either[List[Diagnostic], List[Product]] = {
    val pl = new ProductLine(units)
    if (pl.errors.nonEmpty) Left(pl.errors) else Right(pl.products.values.toList)
  }

  private def core(units: List[CompilationUnit]): List[CompilationUnit] = units.map(u => CompilationUnit(u.file, u.modules))

  private def forProduct(units: List[CompilationUnit], pl: ProductLine, named: Product): Either[List[Diagnostic], List[CompilationUnit]] = {
    val at = pl.productPos(named.name).getOrElse(Pos.Unknown)
    // the roots and the parents of its features are in the product too (products name leaves, as the manual's examples do)
    val p = named.copy(features = named.features ++ (pl.model.implied(named.features.keySet) -- named.features.keySet).toList.sorted.map(_ -> Map.empty[String, AttrValue]))
    // the feature model: the product's features and attributes, open attributes given values that satisfy it
    val given: Map[(String, String), AttrValue] = for ((f, as) <- p.features; (a, v) <- as) yield (f, a) -> v
    val attrs =
      if (pl.model.isEmpty) given
      else pl.model.complete(p.features.keySet, given) match {
        case Right(a) => a
        case Left((violations, _)) =>
          return Left(List(Diagnostic.error(at, s"product ${p.name} does not satisfy the feature model: ${violations.mkString("; ")}")))
      }
    val clauses = pl.ordered(p) match {
      case Left(d) => return Left(List(d))
      case Right(cs) => cs
    }
    val program = new Modules(core(units))
    for (c <- clauses) {
      val d = pl.deltas(c.delta)
      val args = mutable.LinkedHashMap.empty[String, AttrValue]
      val argErrors = mutable.ListBuffer.empty[Diagnostic]
      for ((param, arg) <- d.params.zip(c.args)) {
        val v: Option[AttrValue] = arg match {
          case IntArg(i) => Some(IntValue(i))
          case StringArg(s) => Some(StringValue(s))
          case NameArg("True") => Some(BoolValue(true))
          case NameArg("False") => Some(BoolValue(false))
          case NameArg(f) => Some(BoolValue(p.has(f)))
          case AttrArg(f, a) => attrs.get((f, a)).orElse(p.features.get(f).flatMap(_.get(a)))
        }
        v match {
          case Some(value) => args(param.name) = value
          case None =>
            argErrors += Diagnostic.error(arg.pos, s"delta ${d.name} for product ${p.name}: the product gives no value to ${showArg(arg)}")
        }
      }
      if (argErrors.nonEmpty) return Left(argErrors.toList)
      shadowed(d).foreach(e => return Left(List(e)))
      val app = new DeltaApplication(program, d, p.name, args.toMap)
      app.apply()
      if (app.errors.nonEmpty) return Left(app.errors)
    }
    val line = pl.line.toList.flatMap(_.featureNames)
    Right(program.result ++ productlineUnit(units, line, Some(p)))
  }

  private def showArg(a: DeltaArg): String = a match {
    case AttrArg(f, x) => s"$f.$x"
    case IntArg(i) => i.toString
    case StringArg(s) => "\"" + s + "\""
    case NameArg(n) => n
  }

  /**
   * A delta parameter is substituted wherever the delta's code reads its name; a local, parameter
   * or field of the same name inside the delta would be substituted too, so it is an error.
   */
  private def shadowed(d: DeltaDecl): Option[Diagnostic] = {
    val params = d.params.map(_.name).toSet
    var found: Option[Diagnostic] = None
    def bind(n: String, at: Pos): Unit =
      if (params(n) && found.isEmpty)
        found = Some(Diagnostic.error(at, s"'$n' is a parameter of delta ${d.name}, which replaces every '$n' in the delta's code; rename this declaration"))
    Walk.foreach(d.modifiers) {
      case p: Param => bind(p.name, p.pos)
      case v: VarDeclStmt => bind(v.name, v.pos)
      case l: LetBinding => bind(l.name, l.pos)
      case v: VarPattern => bind(v.name, v.pos)
      case f: FieldDecl => bind(f.name, f.pos)
      case f: ForeachStmt => bind(f.valueVar, f.pos); f.indexVar.foreach(bind(_, f.pos))
    }
    found
  }

  /** `ABS.Productline`, for a program that imports from it and does not define it. */
  private def productlineUnit(units: List[CompilationUnit], features: List[String], p: Option[Product]): List[CompilationUnit] = {
    val modules = units.flatMap(_.modules)
    val wanted = modules.exists(_.imports.exists(i => i.from.contains(ProductlineModule) || (i.names match {
      case SomeNames(ns) => ns.exists(_.name.module.contains(ProductlineModule))
      case AllNames => false
    })))
    if (!wanted || modules.exists(_.name == ProductlineModule)) Nil
    else {
      val selected = p.toList.flatMap(_.features.keys).filter(features.contains)
      val text =
        s"""module $ProductlineModule;
           |export *;
           |data Feature${if (features.isEmpty) "" else features.mkString(" = ", " | ", "")};
           |def List<Feature> product_features() = ${if (selected.isEmpty) "Nil" else selected.mkString("list[", ", ", "]")};
           |def String product_name() = "${p.fold("")(_.name)}";
           |""".stripMargin
      Parser.parse(s"<$ProductlineModule>", text) match {
        case Right(u) => List(u)
        case Left(ds) => throw new IllegalStateException(s"absc: the generated $ProductlineModule does not parse: $ds")
      }
    }
  }

  // ---------------------------------------------------------------- absc check --product-line

  /** What `check --product-line` found: errors and warnings, and one line per product checked. */
  final case class LineReport(diagnostics: List[Diagnostic], summary: List[String])

  /**
   * Checks the whole product line: its declarations, that the feature model is satisfiable, and
   * for every declared product (and the core) that it satisfies the feature model, that its
   * deltas apply, that their order is unambiguous (two deltas that change the same class member,
   * interface or declaration must be ordered by `after`), and that the flattened program is well
   * typed (`typecheck` gives the type checker's errors and warnings). Every diagnostic of a product
   * says which product.
   */
  def checkProductLine(units: List[CompilationUnit], typecheck: List[CompilationUnit] => List[Diagnostic]): LineReport = {
    val pl = new ProductLine(units)
    if (pl.errors.nonEmpty) return LineReport(pl.errors, Nil)
    val out = mutable.ListBuffer.empty[Diagnostic]
    val summary = mutable.ListBuffer.empty[String]
    def tagged(ds: List[Diagnostic], who: String) = ds.map(d => d.copy(message = s"$who: ${d.message}"))

    val coreErrors = typecheck(core(units) ++ productlineUnit(units, pl.line.toList.flatMap(_.featureNames), None))
    out ++= tagged(coreErrors, "the core")
    summary += s"core: ${if (coreErrors.exists(_.isError)) "has errors" else "well-typed"}"

    if (!pl.model.isEmpty) pl.model.satisfiable match {
      case Right((sel, _)) => summary += s"feature model: satisfiable (e.g. ${pl.model.features.keys.filter(sel).mkString(", ")})"
      case Left(None) =>
        out += Diagnostic.error(pl.model.features.head._2.pos, "the feature model is not satisfiable: no selection of features meets all its constraints")
        summary += "feature model: not satisfiable"
      case Left(Some(why)) =>
        out += Diagnostic.warning(pl.model.features.head._2.pos, s"could not decide whether the feature model is satisfiable ($why)")
        summary += "feature model: undecided"
    }
    if (pl.products.isEmpty && pl.line.isDefined)
      out += Diagnostic.warning(pl.line.get.pos, s"product line ${pl.line.get.name} declares no products: only the core was checked")

    for (p <- pl.products.values) {
      val ambiguous = pl.ordered(p).toOption.toList.flatMap(cs => ambiguities(pl, cs, p))
      out ++= ambiguous
      forProduct(units, pl, p) match {
        case Left(ds) =>
          out ++= ds
          summary += s"product ${p.name}: does not flatten"
        case Right(flat) =>
          val ds = typecheck(flat)
          out ++= tagged(ds, s"product ${p.name}")
          val bad = ds.exists(_.isError) || ambiguous.nonEmpty
          summary += s"product ${p.show}: ${if (bad) "has errors" else "well-typed"}"
      }
    }
    LineReport(out.toList.distinct, summary.toList)
  }

  /**
   * Pairs of deltas applied to `p` that no `after` orders and that change a common element (a
   * class member, an interface, a declaration, or something in a class the other removes): their
   * result depends on an order the product line does not fix.
   */
  private def ambiguities(pl: ProductLine, clauses: List[DeltaClause], p: Product): List[Diagnostic] = {
    val prints = clauses.map(c => c -> footprint(pl.deltas(c.delta)))
    for {
      ((a, fa), i) <- prints.zipWithIndex
      (b, fb) <- prints.drop(i + 1)
      if !pl.before(a.delta, b.delta, clauses) && !pl.before(b.delta, a.delta, clauses)
      common <- fa.collectFirst { case x if fb.exists(y => overlap(x, y)) => x }.toList
    } yield Diagnostic.error(b.pos, s"product ${p.name}: deltas ${a.delta} and ${b.delta} both change ${common._1} and no 'after' orders them; " +
      s"add 'after ${a.delta}' to the clause of ${b.delta} (or the other way round)")
  }

  /** (element, removes it). Elements are `M.C`, `M.C.m`, ...; unqualified names are taken in the delta's `uses` module. */
  private def footprint(d: DeltaDecl): List[(String, Boolean)] = {
    def q(n: QName): String = n.module.orElse(d.uses).fold(n.name)(m => s"$m.${n.name}")
    def names(s: MethodSet): List[String] = s match {
      case MethodList(ms) => ms.map(_.name)
      case TraitRef(t) => List(s"<trait $t>")
    }
    d.modifiers.flatMap {
      case AddsDecl(x) => List((q(QName(x.name)), false))
      case ModifiesData(x) => List((q(QName(x.name)), false))
      case ModifiesTypeSyn(x) => List((q(QName(x.name)), false))
      case RemovesClass(n) => List((q(n), true))
      case RemovesInterface(n) => List((q(n), true))
      case ModifiesInterface(n, ms) => ms.map {
        case AddsSig(s) => (s"${q(n)}.${s.name}", false)
        case RemovesSig(s) => (s"${q(n)}.${s.name}", true)
      }
      case mc: ModifiesClass =>
        val c = q(mc.name)
        (if (mc.addsIfaces.nonEmpty || mc.removesIfaces.nonEmpty) List((s"$c implements", false)) else Nil) ++
          mc.modifiers.flatMap {
            case AddsField(f) => List((s"$c.${f.name}", false))
            case RemovesField(f) => List((s"$c.${f.name}", true))
            case AddsMethods(s) => names(s).map(m => (s"$c.$m", false))
            case ModifiesMethods(s) => names(s).map(m => (s"$c.$m", false))
            case RemovesMethods(ss) => ss.map(s => (s"$c.${s.name}", true))
          }
      case _: AddsImport | _: AddsExport => Nil
    }
  }

  private def overlap(x: (String, Boolean), y: (String, Boolean)): Boolean =
    x._1 == y._1 || (x._2 && y._1.startsWith(x._1 + ".")) || (y._2 && x._1.startsWith(y._1 + "."))
}
