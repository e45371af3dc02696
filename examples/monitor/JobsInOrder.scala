import cogs.monitor.Properties.TraceMonitor
import cogs.trace.FutRef
import cogs.trace.TraceEvent._

/**
 * A property of the spooler written in the monitor DSL: jobs are printed in ticket order, that
 * is, the calls `submit(job)` complete in increasing `job`. The job number comes from the call's
 * arguments (absc passes them to the trace for observed methods); the call's future links the
 * call to its completion.
 */
// TraceMonitor: a Monitor[TraceEvent] whose reports show events compactly.
class JobsInOrder extends TraceMonitor("jobs are printed in ticket order") {
  private var lastPrinted = BigInt(0)

  case class Submitted(fut: FutRef, job: BigInt) extends State {
    hot {
      case c: Completed if c.fut eq fut =>
        val before = lastPrinted
        lastPrinted = job
        if (job > before) ok else error(s"job $job printed after job $before")
    }
  }

  always {
    case c: CallSent if c.method == "submit" => Submitted(c.fut, BigInt(c.args.head.toString))
  }
}
