// Copy of src/domain/limits.ts, written by `npm run functions:shared`: edit the source, then run it.
/**
 * Every limit of the product in one place: what a typed value may be (field limits,
 * which the device applies before queueing an edit and the database's CHECK
 * constraints apply again), and how much one request, batch, session or connection may
 * cost the backend (service limits). The device, the embedded backend and the tests that
 * hold the migrations to these numbers all read this module, so a limit changes here
 * and nowhere else (plus a new migration, which the agreement test demands).
 */

/** How much the backend gives one client: sizes, counts and times. */
export const serviceLimits = {
  /** Largest request body the backend reads, in bytes. */
  requestBodyBytes: 1024 * 1024,
  /**
   * Rows one push (push_changes) may carry; the device sends batches of at most this.
   * The function refuses more (a migration holds the same number; a test keeps them equal).
   */
  pushBatchRows: 400,
  /** Rows one pull page may carry (pull_changes refuses a larger p_limit). */
  pullPageRows: 1000,
  /**
   * Rows one multi-table pull (pull_changes_many) may carry, a page per table: a
   * device's first sync takes a handful of requests, not one per table and page.
   */
  pullRequestRows: 5000,
  /** Realtime channels one websocket connection may join (a tab uses one). */
  realtimeChannelsPerConnection: 20,
  /** Realtime connections one client address may hold: a dealership's tablets and desktops share one address. */
  realtimeConnectionsPerAddress: 100,
  /** Realtime connections the backend holds at once, from all addresses (hosted Pro's quota): what bounds Realtime's memory. */
  realtimeConnections: 500,
  /** `postgres_changes` bindings one channel may hold: the device's sync channel holds one per synced table (23). */
  realtimeBindingsPerChannel: 50,
  /** `postgres_changes` bindings all channels of one connection may hold together. */
  realtimeBindingsPerConnection: 100,
  /** Longest `postgres_changes` filter (`column=op.value`), in characters; the device sends none. */
  realtimeFilterLength: 256,
  /** Longest channel topic, and longest schema, table or event name of a binding, in characters. */
  realtimeTopicLength: 200,
  /** Largest websocket frame Realtime reads, in bytes: a join at every cap above fits in a fraction of it. */
  realtimeFrameBytes: 64 * 1024,

  /**
   * Longest a client-driven statement (REST, RPC) may run, in milliseconds, as hosted
   * Supabase's 8 s for its API roles. PostgreSQL cancels it; PGlite cannot interrupt a
   * running statement, so there the limits below bound a statement's work instead.
   */
  statementTimeoutMs: 8_000,
  /** Deepest chain of embedded resources in one `select` (`a(b(c))` is 3). */
  maxEmbedDepth: 3,
  /** Rows one read returns at most, as PostgREST's db-max-rows: longer results are cut, not refused. */
  maxRowsPerRead: 1_000,
  /**
   * Rows all embedded resources of one statement may bring together, counting at least
   * one per lookup (an embed that finds nothing still costs one); more is refused.
   */
  maxEmbeddedRows: 20_000,
  /** Rows one insert or upsert body may carry. */
  maxRowsPerWrite: 1_000,
  /** Longest request target (path and query string), in bytes. */
  maxTargetBytes: 8 * 1024,
  /** Query parameters one request may carry. */
  maxQueryParameters: 200,
  /** Filter conditions one request may carry, counting those inside or/and and on embeds. */
  maxFilters: 100,
  /** Deepest nesting of or/and groups. */
  maxLogicDepth: 10,

  /**
   * Requests that may use the database at once. PGlite has one connection, so one;
   * PostgreSQL gets this many of its pool, the rest stays free for sign-in and Realtime.
   */
  dbConcurrentRequests: 6,
  /** Requests that may wait for the database; past this the backend answers 503. */
  dbQueueLength: 16,
  /** Waiting requests one client (one user, or one address without a user) may hold. */
  dbQueuePerClient: 4,
  /** Longest a request waits for the database before it is answered 503, in milliseconds. */
  dbQueueWaitMs: 10_000,
  /** The Retry-After a 503 carries, in seconds: how long a client should wait. */
  retryAfterSeconds: 2,
  /** The longest Retry-After the device honours, in seconds; a longer one is cut to this. */
  maxRetryAfterSeconds: 600,
  /**
   * Longest source a push may name for a change ("imported from labour-sales.csv"), in
   * characters: the change history keeps that much of it, as it keeps the first 100 of a
   * device id. A file name is rarely over 60; the rest is room for the words around it.
   */
  changeSourceLength: 200,
} as const;

/**
 * Importing the dealer system's labour-sales report on the device (src/domain/import/,
 * README "Importing from the dealer system"). A year of days in the longest common layout,
 * a line per date and pay type with six pay types, is about 2,200 lines and 150 KB; these
 * bounds are ten times that and more, and small enough that a tablet reads a file at the
 * limit in a moment. A bigger file is refused whole, before it is read.
 */
export const importLimits = {
  /** Largest file read, in bytes. */
  fileBytes: 4 * 1024 * 1024,
  /** Lines of figures one file may hold (lines above the headings and blank lines not counted). */
  dataLines: 25_000,
  /** Columns one line may hold: the widest exports have a few dozen. */
  columns: 200,
  /** Longest column heading a mapping names, in characters. */
  headingLength: 100,
  /** Pay-type codes one labour category may be mapped from ("C", "CP", "CS"...). */
  payTypeCodes: 10,
  /** Longest pay-type code, in characters: dealer systems use one to a few letters, some a short name. */
  payTypeCodeLength: 30,
} as const;

export type ServiceLimits = { -readonly [K in keyof typeof serviceLimits]: number };

/**
 * Sessions, passwords and sign-in: the embedded backend's defaults, each of which an
 * environment variable can override (see README, "The embedded backend").
 */
export const authLimits = {
  /** Lifetime of an access token, in seconds (LOCAL_SUPABASE_JWT_EXPIRY). */
  accessTokenSeconds: 3600,
  /**
   * How long a refresh token that was already used still yields the session's current
   * token, in seconds: a reply lost on the way or two tabs refreshing at once
   * (LOCAL_SUPABASE_REFRESH_TOKEN_REUSE_INTERVAL).
   */
  refreshTokenReuseSeconds: 10,
  /** A session not refreshed for this long ends, in seconds (LOCAL_SUPABASE_SESSION_INACTIVITY_TIMEOUT). */
  sessionInactivitySeconds: 30 * 24 * 3600,
  /** Shortest password accepted. */
  passwordMinLength: 6,
  /** Longest password accepted: bcrypt reads only the first 72 bytes. */
  passwordMaxBytes: 72,
  /** Longest e-mail address (RFC 5321). */
  emailMaxLength: 254,
  /** Largest user_metadata a user or an admin may store, in bytes of JSON. */
  userMetadataBytes: 4096,
  /** Sign-in failures of one e-mail from one address before each further attempt must wait. */
  signInFreeFailures: 5,
  /** The first wait after the free failures, in milliseconds; it doubles with each further failure. */
  signInFirstDelayMs: 1000,
  /** The longest wait between attempts of one e-mail from one address, in milliseconds. */
  signInMaxDelayMs: 60_000,
  /** Failed sign-ins one address may make in the window before it must wait (a flood, not a dealership). */
  signInAddressFailures: 300,
  /** The window the counts above are kept for, in milliseconds. */
  signInWindowMs: 15 * 60_000,
  /**
   * Longest name of an authenticator (an MFA factor's friendly name) and of the issuer an
   * authenticator app shows, in characters: both go into the QR code, which must stay
   * readable by a phone's camera.
   */
  mfaFactorNameMaxLength: 100,
  mfaIssuerMaxLength: 100,
} as const;

/** What a number stands for: it decides the wording of a refusal and which bound applies. */
export type NumberKind =
  | 'hours'
  | 'money'
  | 'count'
  | 'percent'
  | 'days'
  | 'rate'
  | 'ratio'
  | 'headcount'
  | 'year'
  | 'month'
  | 'weekday'
  | 'week';

export type NumberLimit = {
  kind: NumberKind;
  label: string;
  min: number;
  max: number;
  /** Whole numbers only (counts, days of a week, people). */
  whole: boolean;
  /** Decimal places the column keeps; more are refused on the device rather than rounded away by the server. */
  decimals: number;
};

/** Free text a person types. Lengths count characters (code points), as Postgres' char_length does. */
export type TextLimit = { kind: 'text'; label: string; maxLength: number; /** Must hold a non-blank character. */ required: boolean };

/** A code the app writes, never typed: one of a closed list, or of a fixed shape. */
export type CodeLimit = { kind: 'code'; label: string; maxLength: number; values?: readonly string[]; pattern?: string };

/** A list of ids (arrays). */
export type ListLimit = { kind: 'list'; label: string; maxItems: number };

/** A number whose meaning, and so its limit, depends on another column of the same row. */
export type DependentLimit = { kind: 'depends'; on: string; cases: Readonly<Record<string, NumberLimit>>; otherwise?: NumberLimit };

export type FieldLimit = NumberLimit | TextLimit | CodeLimit | ListLimit | DependentLimit;

type NumberOptions = { whole?: boolean; decimals?: number; min?: number };

// The helpers below are marked free of side effects so that a bundle using only the
// service limits (the service worker's) leaves the field table out.

/** A non-negative number with 2 decimals unless told otherwise. */
/* @__NO_SIDE_EFFECTS__ */
function number(kind: NumberKind, label: string, max: number, options: NumberOptions = {}): NumberLimit {
  const whole = options.whole ?? false;
  return { kind, label, min: options.min ?? 0, max, whole, decimals: whole ? 0 : (options.decimals ?? 2) };
}

/* @__NO_SIDE_EFFECTS__ */
const text = (label: string, maxLength: number, required = false): TextLimit => ({ kind: 'text', label, maxLength, required });
/* @__NO_SIDE_EFFECTS__ */
const list = (label: string, maxItems: number): ListLimit => ({ kind: 'list', label, maxItems });

// The bounds, each with why it is that number. They are sanity bounds, not business
// rules: far above the biggest real store, low enough that a slip of the finger (an extra
// three zeros, a pasted phone number) is caught where it is typed.

/** One labour category's hours in one day: 100 technicians flagging 10 hours each; the largest service departments have about half that. */
const dayHours = 1_000;
/** One labour category's sales in one day: the day's most hours at $500 an hour, above any door rate. */
const daySales = 500_000;
/** A month's hours: 31 days at the day maximum in all three categories is 93,000. */
const monthHours = 100_000;
/** A month's money line (sales, gross, an expense): ten times the monthly labour sales of a very large department (about $1M). */
const monthMoney = 10_000_000;
/** A month's count of repair orders, op codes or surveys: a 300-RO-a-day store writes about 9,000 a month. */
const monthCount = 100_000;
/** Dollars per hour (door rates, ELR): the highest labour rates are about $400; $1,000 is no real rate. */
const hourlyRate = 1_000;
/** Hours per repair order: a customer-pay RO averages 1 to 3 hours; an engine rebuild is about 30. */
const hoursPerRo = 50;
/** Money per repair order: the default target is $662; a single service RO above $100,000 does not exist. */
const moneyPerRo = 100_000;
/** Repair orders per day: the default target is 50; the largest stores write a few hundred. */
const rosPerDay = 10_000;
/** People or stalls in one service department: the largest have a couple of hundred technicians. */
const people = 1_000;
/** One advisor's pay in a month: the best-paid earn about $20,000; anything over $1M is a typing slip. */
const monthPay = 1_000_000;
/** Years the product keeps: it started in the 2020s; dates outside 2000 to 2100 are typing or clock errors. */
const year = number('year', 'Year', 2100, { whole: true, min: 2000 });
const month = number('month', 'Month', 12, { whole: true, min: 1 });
/** Shares of something (e-mail penetration, inspections with media): 0 to 100 percent. */
/* @__NO_SIDE_EFFECTS__ */
const share = (label: string) => number('percent', label, 100);
/* @__NO_SIDE_EFFECTS__ */
const monthCountOf = (label: string) => number('count', label, monthCount, { whole: true });

/** Advisor and team totals: a month of one advisor (or a day of the team), money, hours and RO counts. */
const totals = {
  year,
  month,
  // Parts and labour, labour sales: an advisor's month of money; never negative (credits go on their own RO).
  parts_labour: number('money', 'Parts & Labour', monthMoney),
  labour_sales: number('money', 'Labour Sales', monthMoney),
  total_ros: monthCountOf('Total ROs'),
  total_hours: number('hours', 'Total Hours', monthHours),
  cp_labour: number('money', 'CP Labour', monthMoney),
  cp_ros: monthCountOf('CP ROs'),
  cp_hours: number('hours', 'CP Hours', monthHours),
  internal_ros: monthCountOf('Internal ROs'),
  warranty_ros: monthCountOf('Warranty ROs'),
} as const;

/** Op codes: counts of jobs sold in a month, each at most one per RO or a few. */
const opCodes = {
  year,
  month,
  alignments: monthCountOf('Alignments'),
  tire_sales: monthCountOf('Tire Sales'),
  batteries: monthCountOf('Batteries'),
  auto_trans_service: monthCountOf('Auto Trans Service'),
  coolant_service: monthCountOf('Coolant Service'),
  diff_service: monthCountOf('Diff Service'),
  front_brakes: monthCountOf('Front Brakes'),
  rear_brakes: monthCountOf('Rear Brakes'),
} as const;

/** Surveys: two shares in percent, a count, and NPS kept as typed (a score, "85%", "n/a"). */
const surveys = {
  year,
  month,
  mpi_media: share('MPI Media'),
  // NPS is kept as typed; 100 characters holds any score with a note, and was the limit from the start.
  nps_score: text('NPS Score', 100),
  surveys_count: monthCountOf('Surveys'),
  email_penetration: share('Email Penetration'),
} as const;

/* @__NO_SIDE_EFFECTS__ */
const elrTarget = (label: string) => number('rate', label, hourlyRate);

/** Monthly targets: target_value means what metric_key says. */
const targetCases: Record<string, NumberLimit> = {
  // Hours and sales per day for the whole store: three categories at the day maximum.
  hoursPerDay: number('hours', 'Hours Per Day target', dayHours * 3),
  salesPerDay: number('money', 'Sales Per Day target', daySales * 3),
  cpElr: elrTarget('CP ELR target'),
  warrantyElr: elrTarget('Warranty ELR target'),
  warElr: elrTarget('Warranty ELR target'),
  internalElr: elrTarget('Internal ELR target'),
  intElr: elrTarget('Internal ELR target'),
  totalElr: elrTarget('Total ELR target'),
  cpHoursPerRo: number('ratio', 'CP Hours Per RO target', hoursPerRo),
  rosOver30Days: monthCountOf('ROs Over 30 Days target'),
  shopSupplies: number('money', 'Shop Supplies target', monthMoney),
  // "Work Days in Month": a month has at most 31 days.
  daysComplete: number('days', 'Work Days in Month', 31, { whole: true }),
  rosOver45Days: monthCountOf('ROs Over 45 Days target'),
  weOweOver30Days: monthCountOf('We Owe Over 30 Days target'),
  grossPerEmployee: number('money', 'Gross Per Employee target', monthMoney),
};

/**
 * Every writable number, text and list column of every synced table, with what it may
 * hold. Keys, ids, dates, flags and server-stamped columns are not listed: their types
 * and the tables' own constraints bound them. A test introspects the database so that a
 * new column without an entry here fails, and another holds the migrations' CHECK
 * constraints to these numbers on PGlite and PostgreSQL.
 */
export const fieldLimits = {
  stores: {
    name: text('Store name', 200, true),
    // A DNS label: at most 63 characters of a-z, 0-9 and inner hyphens.
    subdomain: { kind: 'code', label: 'Subdomain', maxLength: 63, pattern: '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$' },
  },
  store_settings: {
    labour_rate: number('rate', 'Labour Rate', hourlyRate),
    warranty_rate: number('rate', 'Warranty Rate', hourlyRate),
    internal_rate: number('rate', 'Internal Rate', hourlyRate),
    stalls: number('headcount', 'Stalls', people, { whole: true }),
    journeyman_technicians: number('headcount', 'Journeyman Technicians', people, { whole: true }),
    apprentice_technicians: number('headcount', 'Apprentice Technicians', people, { whole: true }),
    lube_techs: number('headcount', 'Lube Techs', people, { whole: true }),
    service_advisors: number('headcount', 'Service Advisors', people, { whole: true }),
    appt_coordinator: number('headcount', 'Appointment Coordinator', people, { whole: true }),
    dispatcher: number('headcount', 'Dispatcher', people, { whole: true }),
    service_manager: number('headcount', 'Service Manager', people, { whole: true }),
    // Open or closed on each weekday, Monday first ('1111110': Monday to Saturday).
    work_week: { kind: 'code', label: 'Work week', maxLength: 7, pattern: '^[01]{7}$' },
    // The Work Mix target, in percent of hours; the three add up to 100 (a rule across the fields).
    mix_target_cp: share('CP share of hours target'),
    mix_target_w: share('Warranty share of hours target'),
    mix_target_i: share('Internal share of hours target'),
    // The dealer-system import's column mapping, saved once for the store (JSON written by
    // src/domain/import/mapping.ts, never typed): its headings and codes at their limits
    // (importLimits) take under 2,000 characters.
    import_mapping: text('Import column mapping', 4000),
  },
  store_calendar_days: {
    year,
    // "Thanksgiving", "Closed for the stocktake": a short name for the day.
    note: text('Note', 200),
  },
  month_closures: {
    year,
    // Stamped by the server from the person's account; the device only shows them.
    closed_by_name: text('Closed by', 200),
    reopened_by_name: text('Reopened by', 200),
    // The work pattern and Work Mix target the month was closed with, kept by the server.
    work_week: { kind: 'code', label: 'Work week', maxLength: 7, pattern: '^[01]{7}$' },
    mix_target_cp: share('CP share of hours target'),
    mix_target_w: share('Warranty share of hours target'),
    mix_target_i: share('Internal share of hours target'),
  },
  monthly_operational_inputs: {
    year,
    month,
    ros_over_30_days: monthCountOf('ROs Over 30 Days'),
    due_bills_over_30_days: monthCountOf('Due Bills Over 30 Days'),
    shop_supplies: number('money', 'Shop Supplies', monthMoney),
  },
  daily_inputs: {
    year,
    month,
    day_of_week_iso: number('weekday', 'Day of week', 7, { whole: true, min: 1 }),
    // A month spans at most six Sunday-to-Saturday weeks.
    week_of_month_display: number('week', 'Week of month', 6, { whole: true, min: 1 }),
    row_identifier: { kind: 'code', label: 'Labour category', maxLength: 2, values: ['CP', 'W', 'I'] },
    metric_type: { kind: 'code', label: 'Metric', maxLength: 5, values: ['hours', 'sales'] },
    value: {
      kind: 'depends',
      on: 'metric_type',
      cases: { hours: number('hours', 'Hours', dayHours), sales: number('money', 'Sales', daySales) },
    },
    year_week_actual: { kind: 'code', label: 'ISO week', maxLength: 7, pattern: '^[0-9]{4}-[0-9]{2}$' },
  },
  weekly_store_performance: {
    year,
    // Days of one Sunday-to-Saturday week.
    days_complete: number('days', 'Days Complete', 7, { whole: true }),
    work_days: number('days', 'Work Days', 7, { whole: true }),
  },
  monthly_targets: {
    year,
    month,
    metric_key: { kind: 'code', label: 'Target', maxLength: 64, pattern: '^[a-z][A-Za-z0-9]{1,63}$' },
    target_value: {
      kind: 'depends',
      on: 'metric_key',
      cases: targetCases,
      // Keys of the right shape that are not listed (a later release's targets): non-negative, at most the largest money bound.
      otherwise: number('money', 'Target', monthMoney),
    },
  },
  monthly_labor_gross_inputs: {
    labor_type: {
      kind: 'code',
      label: 'Labour type',
      maxLength: 13,
      values: ['customerPay', 'warranty', 'internal', 'sublet', 'unappliedTime'],
    },
    // Gross profit can be a loss: unapplied time always is, internal work often.
    gross_value: number('money', 'Gross', monthMoney, { min: -monthMoney }),
    direct_sales_value: number('money', 'Sublet Sales', monthMoney),
    // The table's "RO's" column: the month's repair-order count for the labour type.
    return_on_sales: monthCountOf("RO's"),
  },
  yearly_financial_inputs: {
    year,
    month,
    sales: number('money', 'Sales', monthMoney),
    // Gross and net can be losses; expenses, sales and hours cannot be below zero.
    gp_net: number('money', 'GP Net', monthMoney, { min: -monthMoney }),
    ros: number('hours', 'Hours', monthHours),
    personnel_exp: number('money', 'Personnel Exp', monthMoney),
    semi_fixed_exp: number('money', 'Semi Fixed', monthMoney),
    fixed_exp: number('money', 'Fixed', monthMoney),
  },
  user_dashboard_preferences: {
    // Each tile at most once; 12 tiles today, room for more without a new limit.
    selected_kpis: list('Selected KPIs', 32),
    kpi_order: list('KPI order', 32),
  },
  front_end_team_advisors: {
    advisor_name: text('Advisor name', 200, true),
    // Payroll and dealer-system employee numbers are under 20 characters; 64 leaves room for a prefix.
    employee_id: text('Employee ID', 64),
  },
  front_end_team_daily_performance: {
    year,
    month,
    // Kept per month (on its first day): half days count, a month has at most 31.
    days_worked: number('days', 'Days Worked', 31),
    pay_amount: number('money', 'PAY', monthPay),
  },
  front_end_team_advisor_totals: totals,
  front_end_team_totals: totals,
  front_end_team_advisor_op_codes: opCodes,
  front_end_team_op_codes: opCodes,
  front_end_team_advisor_surveys: surveys,
  front_end_team_surveys: surveys,
  front_end_team_targets: {
    year,
    month,
    total_sales_per_ro: number('money', 'Total Sales / RO target', moneyPerRo),
    ros_per_day: number('ratio', 'ROs / Day target', rosPerDay),
    labour_per_ro: number('money', 'Labour / RO target', moneyPerRo),
    // The store's labour in a day: three categories at the day maximum.
    labour_per_day: number('money', 'Labour / Day target', daySales * 3),
    cp_ros_per_day: number('ratio', 'CP ROs / Day target', rosPerDay),
    cp_hours_per_ro: number('ratio', 'CP Hours / RO target', hoursPerRo),
    elr: elrTarget('ELR target'),
  },
  advisor_survey_data: surveys,
} as const satisfies Record<string, Record<string, FieldLimit>>;

export type LimitedTable = keyof typeof fieldLimits;
