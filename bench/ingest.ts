import { portAppendRate } from './append-rate';
import { textOption, wholeNumber } from './args';
import { startGatewayProcess, type GatewayProcess } from './gateway-process';
import { startBare, type Bare } from './gateways';
import { peakLoad, signedRequests } from './ingest-requests';
import { pacedLoad } from './paced-load';
import { phaseLine, startPhaseCpu } from './phase-cpu';
import { cpuMsPerRequest, cpuSeconds, machineBound, microseconds } from './process-cpu';
import { statementTimes } from './statement-times';
import type { Bench, BenchContext } from './run';

/**
 * Signed ingest against real gateway processes (real broker, real Postgres)
 * at batch sizes 1, 100 and 500: each at its peak (a closed loop at a fixed
 * concurrency) and at half that rate, evenly paced (see paced-load.ts), with
 * the CPU the gateway, its Postgres connections, the broker and the bench
 * itself spent per event (the gateway's at both rates). Beside them, in the
 * same run: the EventLog port's own append rate (the ceiling a gateway
 * approaches) and a bare Fastify route answering 202.
 * `--gateways N` runs N gateway processes behind one port. Each batch size
 * also prints the rate at which its CPU per event (gateway, Postgres and
 * broker together) fills every core here, and that bound's ratio to the raw
 * append: how near the append rate any number of gateways could come on
 * this machine. With those, each batch size's costliest Postgres statements
 * at its peak, each with its share of their time.
 */
function options(args: string[]) {
  return {
    seconds: wholeNumber(args, 'seconds', 10),
    connections: wholeNumber(args, 'connections', 32),
    batches: textOption(args, 'batches', '1,100,500').split(',').map(Number),
    gateways: wholeNumber(args, 'gateways', 1),
    profileDir: textOption(args, 'cpu-prof', ''),
  };
}

const bench: Bench = async (context) => {
  const { seconds, connections, batches, gateways: processes, profileDir } = options(context.args);
  let started: GatewayProcess | undefined;
  let bare: Bare | undefined;
  try {
    started = await startGatewayProcess(context, 'ingest', { processes, profileDir });
    bare = await startBare();
    const { gateways, admin, database } = started;
    const gateway = gateways.url;
    const credentials = await started.createTenant();
    const figures: Record<string, number | string> = { gateways: processes, connections, seconds, kafka_client: process.env.EARSHOT_KAFKA_CLIENT ?? 'default' };

    const bareBefore = cpuSeconds([bare.pid]);
    const bareRun = await peakLoad(context, bare.url, 'bare Fastify 202', signedRequests(credentials, 1, 'bare'), connections, seconds);
    figures.bare_rps = Math.round(bareRun.requests.average);
    const bareCpu = cpuMsPerRequest(cpuSeconds([bare.pid]), bareBefore, bareRun.requests.total);
    figures.bare_cpu_ms_per_request = bareCpu;
    const appendRate = await portAppendRate(context.kafkaBrokers);
    const append = appendRate.median;
    context.report(`EventLog port raw append: ${append} events/s, the median of ${appendRate.passes.join(', ')}`);
    figures.port_append_events_per_s = append;
    figures.port_append_passes = appendRate.passes.join(',');

    const statements = await statementTimes(admin, database);
    for (const batch of batches) {
      const next = signedRequests(credentials, batch, `bench-${process.pid}-${batch}`);
      // The same events in flight at every batch size (32 × 100 by default), so a peak measures throughput, not a queue.
      const open = Math.max(1, Math.min(connections, Math.ceil((connections * 100) / batch)));
      await peakLoad(context, gateway, `batch ${batch}: warm-up`, next, open, 2);
      await started.analyze();
      const phase = await startPhaseCpu(started.processes);
      const counting = await statements.count();
      const peak = await peakLoad(context, gateway, `batch ${batch}: peak`, next, open, seconds);
      // What the peak left in flight (answers, deliveries) drains before the paced run starts.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const events = peak.requests.total * batch;
      const statementFigures = await counting(events, `b${batch}_`);
      const eventsPerSecond = Math.round(peak.requests.average * batch);
      const cpu = (await phase(events)).perUnit;
      const halfRate = Math.max(1, Math.floor(peak.requests.average / 2));
      // CPU per event falls as the rate rises (group commit shares more of each write): the peak's figure beside this one.
      const halfPhase = await startPhaseCpu(started.processes);
      const half = await pacedLoad({
        url: `${gateway}/api/v1/webhooks/ingest`,
        rate: halfRate,
        seconds,
        connections,
        next,
        onSecond: (second) => context.progress(`batch ${batch}: half peak (${halfRate} req/s): ${second} of ${seconds} s`),
      });
      const halfCpu = await halfPhase(half.answered * batch);
      // The load generator stays out of the bound: providers send from machines of their own.
      const bound = machineBound([cpu.gateway, cpu.postgres, cpu.broker].map(microseconds));
      report(context, batch, eventsPerSecond, append, cpu, half);
      context.report(`batch ${batch}: half peak, paced: ${phaseLine(halfCpu, 'event')}`);
      context.report(`batch ${batch}: ${statementFigures.line}`);
      if (bound !== undefined)
        context.report(
          `batch ${batch}: at this CPU per event the machine's ${bound.cores} cores take at most ${Math.round(bound.eventsPerSecond)} events/s however many gateways = ${(bound.eventsPerSecond / append).toFixed(2)} × raw append`,
        );
      Object.assign(figures, {
        [`b${batch}_events_per_s`]: eventsPerSecond,
        [`b${batch}_events_per_s_per_gateway`]: Math.round(eventsPerSecond / processes),
        [`b${batch}_rps`]: Math.round(peak.requests.average),
        [`b${batch}_connections`]: open,
        [`b${batch}_p99_ms`]: peak.latency.p99,
        [`b${batch}_ratio_to_append`]: Number((eventsPerSecond / append).toFixed(3)),
        [`b${batch}_half_peak_p50_ms`]: half.p50,
        [`b${batch}_half_peak_p99_ms`]: half.p99,
        [`b${batch}_half_peak_gateway_cpu_ms_per_event`]: halfCpu.perUnit.gateway,
        [`b${batch}_half_peak_machine_busy_share`]: halfCpu.machineBusy,
        [`b${batch}_gateway_cpu_ms_per_event`]: cpu.gateway,
        [`b${batch}_postgres_cpu_ms_per_event`]: cpu.postgres,
        [`b${batch}_broker_cpu_ms_per_event`]: cpu.broker,
        [`b${batch}_load_cpu_ms_per_event`]: cpu.load,
        [`b${batch}_machine_bound_events_per_s`]: bound === undefined ? 'n/a' : Math.round(bound.eventsPerSecond),
        [`b${batch}_machine_bound_ratio_to_append`]: bound === undefined ? 'n/a' : Number((bound.eventsPerSecond / append).toFixed(3)),
        [`b${batch}_non_2xx`]: peak.non2xx + half.non2xx,
        [`b${batch}_errors`]: peak.errors + half.errors,
        ...statementFigures.figures,
      });
      if (batch === 1) {
        figures.ratio_to_bare = Number((peak.requests.average / bareRun.requests.average).toFixed(3));
        // CPU per request against the bare route's in the same run, minutes apart: a shared machine's load moves both.
        if (typeof cpu.gateway === 'number' && typeof bareCpu === 'number' && bareCpu > 0)
          figures.b1_gateway_cpu_to_bare = Number((cpu.gateway / bareCpu).toFixed(2));
      }
    }
    return figures;
  } finally {
    await bare?.stop();
    await started?.stop();
  }
};

export default bench;

function report(
  context: BenchContext,
  batch: number,
  eventsPerSecond: number,
  append: number,
  cpu: Record<string, number | string>,
  half: { rps: number; p50: number; p99: number; non2xx: number; errors: number },
): void {
  context.report(
    `batch ${batch}: ${eventsPerSecond} events/s = ${(eventsPerSecond / append).toFixed(2)} × raw append; CPU per event: gateway ${cpu.gateway} ms, Postgres ${cpu.postgres} ms, broker ${cpu.broker} ms; the load generator (this process) ${cpu.load} ms`,
  );
  context.report(
    `batch ${batch}: half peak, paced: ${Math.round(half.rps)} req/s, p50 ${half.p50} ms, p99 ${half.p99} ms, non-2xx ${half.non2xx}, errors ${half.errors}`,
  );
}
