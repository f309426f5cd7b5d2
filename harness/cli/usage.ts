// Help texts of the `apc` command.
import { FAULTS_BY_INTERFACE } from '../../reference-impl/faults.ts';
import { PLATFORM_BEHAVIOURS } from '../../reference-impl/platform-like/behaviours.ts';
import { apcCommand } from '../apc-command.ts';

/** The platform-like behaviours of the reference, four a line. */
function behaviourList(indent: string): string {
  return PLATFORM_BEHAVIOURS.map((name, i) => (i % 4 === 0 ? indent : ' ') + name + (i < PLATFORM_BEHAVIOURS.length - 1 ? ',' : '') + (i % 4 === 3 ? '\n' : '')).join('').trimEnd();
}

/** The reference implementation's fault switches, wrapped, one block per interface. */
function faultList(indent: string): string {
  return Object.entries(FAULTS_BY_INTERFACE)
    .map(([iface, names]) => {
      const lines: string[] = [];
      let line = `${indent}${iface}:`;
      for (const name of names) {
        if (line.length + name.length + 1 > 100) {
          lines.push(line);
          line = `${indent}  `;
        }
        line += ` ${name}`;
      }
      return [...lines, line].join('\n');
    })
    .join('\n');
}
/** The target options `apc contracts verify` and `apc cleanup` accept, as `apc certify` explains them. */
const TARGET_OPTIONS_HELP = `Target options (as for \`apc certify\`, which explains each; flags win over APC_*
variables, which win over the profile file):
  --control-plane-url URL, --agent-server-url URL, --tracing-url URL
  --api-key KEY, --tenant-id ID, --other-api-key KEY, --other-tenant-id ID
  --control-plane-mode hosted|self-hosted, --agent-server-hosting platform|self-run, --profile FILE
  --runs N, --seed N, --seeds N, --concurrency N, --keep
  --poll-interval-ms N, --request-timeout-ms N, --stream-timeout-ms N, --deploy-timeout-ms N`;

/** How a command printed here is typed to run as printed: `npx apc` in a clone or project, `apc` installed globally. */
const APC = apcCommand();

export const MAIN_USAGE = `apc — conformance harness for the agent deployment platform interfaces

Usage:
  apc init [options]         probe a target and write a commented profile for it
  apc certify [options]      certify an implementation (no URL: the in-repo reference implementation)
  apc serve [options]        start the reference implementation
  apc report merge DIR...    combine shard reports into one report
  apc report allure [DIR]    render a report's Allure results to HTML
  apc report diff OLD NEW    what changed between two reports (exit 1 on a regression)
  apc report matrix DIR...   requirement × target of several reports (Markdown, HTML, JSON)
  apc cleanup [options]      list (and with --yes delete) what earlier runs left on a target
  apc selftest [options]     the harness certifies itself: mutants, valid variations, hostile targets
  apc contracts verify|matrix|publish   Pact consumer contracts (see contracts/README.md)
  apc help [command]         show help
  apc --version

Run \`${APC} help init\`, \`${APC} help certify\`, \`${APC} help serve\`, \`${APC} help report\`, \`${APC} help cleanup\`,
\`${APC} help selftest\` or \`${APC} help contracts\` for their options.

A key given as --api-key (or --other-api-key) is visible to other users of this machine in \`ps\`
and in the shell's history: prefer the APC_API_KEY (and APC_OTHER_API_KEY) environment variables.
`;

export const CERTIFY_USAGE = `Usage: apc certify [options]

Target (flags win over APC_* environment variables, which win over the profile file):
  --control-plane-url URL     control plane base URL             (APC_CONTROL_PLANE_URL)
  --agent-server-url URL      agent server base URL              (APC_AGENT_SERVER_URL)
  --tracing-url URL           experiment upload base URL         (APC_TRACING_URL)
  --api-key KEY               API key; never printed, but visible in \`ps\`: prefer APC_API_KEY
  --tenant-id ID              workspace id sent as X-Tenant-Id   (APC_TENANT_ID)
  --other-api-key KEY         a key of a second tenant, for the tenant-scoping rules (APC_OTHER_API_KEY)
  --other-tenant-id ID        that second tenant's id            (APC_OTHER_TENANT_ID)
  --control-plane-mode MODE   hosted | self-hosted               (APC_CONTROL_PLANE_MODE)
  --agent-server-hosting H    platform (default): the platform runs the agent server, its
                              authentication rules (spec 5) apply and a key is required;
                              self-run: run outside the platform, AS-AUTH-* not applicable
                                                                 (APC_AGENT_SERVER_HOSTING)
  --profile FILE              YAML profile (see README: vocabulary, fixtures, timeouts, ...) (APC_PROFILE)
  With URLs and no profile, the target is probed as \`apc init\` does, and what was assumed
  is printed (write a profile with \`apc init\` to review and keep it).
  With no URL at all, the in-repo reference implementation is started and certified:
  --reference KIND            process (default: in this process) | container (the product image,
                              built or reused, started with testcontainers; needs Docker;
                              APC_BASE_IMAGE names the Dockerfile's base image)
  --database KIND             memory (default) | postgres (PostgreSQL in a container;
                              APC_POSTGRES_IMAGE names its image, default postgres:15)

Selection:
  --interfaces LIST           control-plane,agent-server,experiment-upload (default: those with a URL)
  --requirements LIST         ids or patterns, comma-separated, case-insensitive (repeatable):
                              * any characters, ? one character, [1235] one of these,
                              [1-5] a range, [!4] any but these; e.g. 'CP-REV-*,CP-REVL-00[1235]'.
                              An id or pattern that names nothing is an error (exit 2).
  --shard I/N                 run the I-th of N deterministic slices (1-based); combine the
                              slices' reports with \`apc report merge\`
  --shard auto                the slice from the CI job's variables (docs/ci.md): GitLab
                              CI_NODE_INDEX/CI_NODE_TOTAL, Buildkite BUILDKITE_PARALLEL_JOB/
                              BUILDKITE_PARALLEL_JOB_COUNT, a Kubernetes Indexed Job
                              JOB_COMPLETION_INDEX with APC_SHARD_TOTAL, or APC_SHARD_INDEX/
                              APC_SHARD_TOTAL (0-based; GitHub Actions: set them from
                              strategy.job-index and strategy.job-total); exit 2 when none is set
  --replay DIR                run again exactly the failed requirements of the report in DIR,
                              with its seed, runs and target (the reference implementation is
                              started again, with its recorded faults, when the report certified
                              it); keys come from the usual flags and variables, as they are
                              never written to a report
  --resume DIR                go on with the interrupted run whose report is in DIR: the same run
                              id, seed and target, only the requirements it had not judged, one
                              report at the end (in DIR); keys are given again as for --replay

Cost (README "Cost of a certification"):
  --plan                      send nothing: print, per interface, how many deployments, revisions
                              (builds), assistants, threads, runs and uploads the selection creates
                              at most, and how long its revision waits take
  --budget deployments=N,revisions=M
                              create at most this many (either may be left out; the profile's
                              budget:, APC_BUDGET; default for a target given by URL: 12
                              deployments, 40 revisions; none lifts it): tests share deployments,
                              those beyond it are skipped, saying "budget", cheapest MUSTs first; a
                              MUST left unjudged makes the run incomplete
  --revision-time DURATION    the plan's time per revision (e.g. 14m; default: the reference's
                              60 ms when certifying it, else 14m, a real platform's build)

Generation and timing:
  --runs N                    fast-check runs per property (default 25)            (APC_RUNS)
  --seed N                    seed of every property, for replays                   (APC_SEED)
  --seeds N                   run each property under N seeds (default 1); the report (APC_SEEDS)
                              records in which seeds each requirement's properties failed
  --concurrency N             requests in flight against the target (default 4)    (APC_CONCURRENCY)
                              8 by default for a target whose answers take 1 s or more
  --poll-interval-ms N        revision polling interval (default 5000)             (APC_POLL_INTERVAL_MS)
  --request-timeout-ms N      one exchange, whole body included (default 10000)    (APC_REQUEST_TIMEOUT_MS)
  --stream-timeout-ms N       one event stream, request to close (default 15000)   (APC_STREAM_TIMEOUT_MS)
  --deploy-timeout-ms N       a revision reaching DEPLOYED (default 1800000)       (APC_DEPLOY_TIMEOUT_MS)
  --max-time DURATION         stop the whole run after this long (e.g. 900, 90s, 30m, 2h): the
                              report is written with verdict interrupted (default: no limit)
  --max-rps N                 at most N requests per second against the target (a shared staging)
  --max-rps auto              start unlimited, slow down after each 429 and settle below the limit
  A 429, or a 503 with Retry-After, is waited out as Retry-After says and the request sent again
  (a create or PATCH only once it is known not to have taken effect), up to timeouts.throttleMs;
  a 503 without Retry-After is sent again with a backoff, at most 3 times within the request timeout.
  After 2 requests in a row to one URL get no answer, or 2 streams from it pass their deadline,
  the rest of the run fails such calls at once, naming the URL.

Output:
  --reports DIR               where the report is written (default ./reports/<run id> under
                              the current directory):
                              compliance.json, compliance.md, compliance.html, junit.xml,
                              badge.svg and allure-results/ (see docs/reports.md)
  --expected-failures FILE    YAML baseline of known failures (see README); what only they block
                              is not news, and a run with nothing new exits 0 with the verdict
                              "no regressions against the baseline"
  --keep                      leave created resources in place (default: delete them)
  --quiet                     print only the summary

Reference implementation (no URL given):
  --reference-fault NAME      certify the reference with a deliberate deviation switched on
                              (repeatable; for the harness's negative self-tests). Names
                              (described in reference-impl/*/faults.md):
${faultList('                              ')}
  --reference-platform-like [LIST]  the reference behaves as the real hosted platform does where
                              the spec allows it: all (the default), or some of
${behaviourList('                              ')}
                              (\`apc help serve\`, reference-impl/platform-like/README.md)
  --reference-time-scale X    multiplies its durations; 0.1 is ten times faster (default 1)

Before any suite, each interface gets one request the spec defines for it (control plane
GET /v2/deployments, agent server POST /assistants/search, experiment upload an empty POST
/api/v1/datasets/upload-experiment). Nothing listening, a URL serving something else, or a
refused key or tenant stops the run with exit 2 and a report with verdict error.

Exit codes: 0 certified, passed for a subset, or no regressions against the baseline; 1 not
certified or incomplete; 2 the harness could not run or judged nothing (the report then holds
verdict error and the reason); 130 interrupted (Ctrl-C, SIGTERM or --max-time: the suites stop,
what the run created is deleted, the partial report is written; a second Ctrl-C exits at once). See README "Verdicts".
`;

export const INIT_USAGE = `Usage: apc init (--control-plane-url URL | --agent-server-url URL | --tracing-url URL)... [options]

Probes the target with cheap requests and writes a profile YAML in which each setting says how
it was found: the source kinds the control plane accepts (a deployment of each is made and
deleted), the optional endpoints that answer (listeners, experiment-reads,
dataset-create; the spec's own endpoints are always judged), whether the agent server demands a key, whether the
fixture graphs (echo, fail) exist, and whether a second key works. Every resource it makes is
named apc-<run id>-init-... and deleted again; it prints what it created and deleted. Keys are
never written to the file.

Required: at least one URL; the profile holds the sections of the interfaces given.
  --control-plane-url URL, --agent-server-url URL, --tracing-url URL
Optional:
  --api-key KEY, --tenant-id ID             the key and workspace (APC_API_KEY, APC_TENANT_ID)
  --other-api-key KEY, --other-tenant-id ID a second tenant (APC_OTHER_API_KEY, APC_OTHER_TENANT_ID)
  --control-plane-mode MODE                 hosted | self-hosted (default: inferred from the sources)
  --request-timeout-ms N                    deadline of each probe (default 30000)
  --budget deployments=N,revisions=M        what the probes may create at most (APC_BUDGET; default 12 and 40,
                                            as certify gives a target by URL; none: no limit). A probe the budget
                                            cannot cover is not sent, and its setting keeps its default
  --out FILE                                where to write (default ./apc-profile.yaml)
  --force                                   overwrite FILE

Exit codes: 0 written, 2 the target could not be probed (with what to fix).
`;

export const SERVE_USAGE = `Usage: apc serve [options]

  --mode MODE                 hosted (default) | self-hosted          (APC_REF_MODE)
  --host HOST                 interface to listen on (default 127.0.0.1; the image: 0.0.0.0) (APC_REF_HOST)
  --control-plane-port N      (default 8100)                          (APC_REF_CONTROL_PLANE_PORT)
  --agent-server-port N       (default 8123)                          (APC_REF_AGENT_SERVER_PORT)
  --tracing-port N            (default 8200)                          (APC_REF_TRACING_PORT)
  --database-url URL          PostgreSQL; in-memory when absent       (DATABASE_URL)
  --api-key KEY:TENANT[,TENANT...]  a key and its tenants; repeatable (APC_REF_API_KEYS, space-separated)
  --phase-ms N                duration of each revision phase (default 20) (APC_REF_PHASE_MS)
  --stats-delay-ms N          delay before experiment statistics are filled (default 2000) (APC_REF_STATS_DELAY_MS)
  --graphs FILE               graph.json registering extra graphs
  --fault NAME                enable a documented deviation, for negative tests (repeatable);
                              names (described in reference-impl/*/faults.md):
${faultList('                              ')}
  --platform-like [LIST]      behave as the real hosted platform does where the spec allows it
                              (reference-impl/platform-like/README.md)   (APC_REF_PLATFORM_LIKE):
                              all (the default), or a comma-separated list of
${behaviourList('                              ')}
  --time-scale X              multiplies the platform-like durations (1.5 s build phases, 3 s
                              asynchronous deletion, 1 s throttling window); 0.1 is ten times
                              faster (default 1)                          (APC_REF_TIME_SCALE)
  --log                       structured JSON logs on stderr (keys and secrets redacted)

A busy port or a database that cannot be reached is reported in one line, with exit code 2.
`;

export const REPORT_USAGE = `Usage:
  apc report merge DIR... [--reports OUT]
      Combine the report folders of \`apc certify --shard I/N\` runs into one report with one
      verdict, written in every format to OUT (default ./reports/<merge id>). The folders must come
      from the same catalogue and seed; a requirement in several folders keeps its worst status.
  apc report allure [DIR]
      Render the Allure results of the report in DIR (default: the newest under ./reports/) to
      DIR/allure-report/index.html. No Java needed.

  apc report diff OLD NEW [--out FILE]
      Compare two report folders: newly failing and newly passing requirements, failures whose
      message changed (in more than the ids of what each run created), other status changes, and
      requirements a catalogue change added or removed. Markdown on the terminal, or in FILE with
      --out.

  apc report matrix DIR... [--out DIR]
      A compatibility matrix: one column per report folder (named for the folder), with its
      verdict, MUST score, implementation and URLs, what was switched on, profile, harness and
      catalogue versions; one row per requirement with each target's status, the rows where the
      targets differ first. Written as matrix.md, matrix.html and matrix.json to DIR (default
      ./reports/matrix).

Exit codes of merge: 0 certified, 1 not certified, 2 the folders could not be merged.
Exit codes of diff: 0 no regression, 1 a requirement that passed in OLD fails in NEW, 2 unreadable folders.
Exit codes of matrix: 0 written, 2 a folder holds no readable report.
`;

export const CLEANUP_USAGE = `Usage: apc cleanup [options]

Lists what earlier runs left on a target: every deployment and assistant whose name (or, for an
assistant, its apc_run metadata) carries a run prefix such as apc-3f9a1c. A dry run unless --yes.

  --run ID                    only the resources of this run (default: every apc- prefixed one)
  --yes                       delete what is listed

${TARGET_OPTIONS_HELP}

Threads carry no name and the experiment upload interface offers no delete: neither is covered.
Exit codes: 0 done (or nothing left), 1 a listing or a deletion failed, 2 a setup problem.
`;

export const CONTRACTS_USAGE = `Usage:
  apc contracts verify [target options] [--pacts DIR] [--junit FILE] [--publish-results]
      Verify the consumer pacts (default contracts/pacts, written by \`npm run contracts:consumers\`)
      against the providers you give a URL for: --control-plane-url (the pact for the control
      plane mode, hosted or self-hosted; a self-hosted URL ends with /api-host, as for certify),
      --agent-server-url, --tracing-url. Key, tenant, profile and timeouts as for \`apc certify\`
      (\`apc help certify\`). With no URL, the in-repo reference implementation is verified.
      Provider states are created through the target's HTTP interface and deleted afterwards
      (--keep leaves them). Every event stream is also judged by the harness's SSE checker.
      --junit FILE              JUnit output (default reports/contracts/junit.xml)
      --publish-results         fetch the pacts from the broker in PACT_BROKER_BASE_URL (token in
                                PACT_BROKER_TOKEN) and publish the results there, with
                                --provider-version V and --branch B (default: from git)
  apc contracts matrix [--pacts DIR]
      For each requirement, the consumers whose interactions rely on it.
  apc contracts publish [--pacts DIR] [--consumer-version V] [--branch B]
      Publish the pact files with the official broker client (pact-broker publish) to
      PACT_BROKER_BASE_URL, authenticated by PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME and
      PACT_BROKER_PASSWORD). Version and branch default to git's HEAD.

${TARGET_OPTIONS_HELP}
  Given no key and no profile, the agent server is first asked without a key: one that answers
  is taken as self-run, one that demands a key is exit 2.

Exit codes: 0 every interaction holds (or published), 1 a contract failed (or the broker refused),
2 the run could not judge (bad flags, no pact files, unreachable URL, no broker URL).
`;

export const SELFTEST_USAGE = `Usage: apc selftest [options]

The harness certifies itself (docs/selftest.md). It certifies, several at a time in this process
(each hostile target in a child \`apc certify\`, whose end it times):
  mutants      the reference implementation deliberately broken (a fault switch, or a proxy that
               rewrites its answers); each must fail exactly the requirements it declares;
  variations   the reference behind a proxy that answers as the spec allows but the reference does
               not (other SSE framing, extra fields, compressed answers ...), or behaving as the real
               platform does (throttling, 503s, asynchronous deletion ...); each must be certified;
  hostile      targets that hang, reset, drip or flood; each run must end with a report in its bound;
  multi-fault  only when --kinds names it: fixed combinations of 3 to 5 mutants switched on at
               once, each certified on the interfaces it bends; scored by recall (components whose
               declared requirements all failed, target 90% overall, 75% each) and MUST failures
               outside the components' requirements (target none).
It prints the matrix and writes selftest.json and selftest.md: mutation score, false alarms,
diagnosis precision (failures outside a mutant's declared requirements), detection rate (in how
many seeds the property rules catch each mutant) and each hostile target's end time.

  --only PATTERNS         only subjects whose id matches (comma-separated, * and ? as in --requirements)
  --kinds LIST            mutants, variations, hostile, multi-fault (default the first three)
  --seeds N               seeds of the detection runs (default 20)
  --runs N                runs per property of the certifications
  --seed N                seed of the certifications (default 1)
  --budget deployments=N,revisions=M
                          the budget of every certification (as apc certify's --budget): do the
                          mutants stay caught within it?
  --concurrency N         certifications whose suites run at a time, up to 12 in one shared
                          vitest run (default 12 for each two cores, at most 24)
  --reports DIR           where selftest.json and selftest.md go (default reports/selftest-<time>)
  --generated N|all       generated protocol mutants to certify: a sample of N picked by --seed
                          (default 6), or all of them
  --list                  list the subjects and what each mutant declares, and run nothing

Exit codes: 0 every target met, 1 a mutant survived, was diagnosed imprecisely or caught in too
few seeds, a variation was failed, or a hostile run overstayed; 2 a usage problem; 130 stopped by
Ctrl-C or SIGTERM (the report covers the subjects that ended).
`;
