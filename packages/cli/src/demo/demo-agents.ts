/** The demo's voice agents: what they are for, their versions, tools and workflow, and what gets said. */
export interface DemoAgent {
  id: string;
  /** Versions in service, oldest first; the newest takes most calls. */
  versions: readonly string[];
  direction: 'inbound' | 'outbound';
  llmModel: string;
  voice: string;
  /** Its tools; `fails` is how often each call to it fails. */
  tools: readonly { name: string; arguments: Record<string, string>; result: Record<string, string | number | boolean>; fails: number; error: string }[];
  workflow: readonly string[];
  /** Customer line, agent answer, taken in turn. */
  exchanges: readonly (readonly [string, string])[];
  /** What a successful call of this agent leads to, with the revenue it brings, if any. */
  outcome: { type: string; value: string; revenueUsd: readonly [number, number] | null };
}

export const DEMO_AGENTS: readonly DemoAgent[] = [
  {
    id: 'support-agent',
    versions: ['2.3.1', '2.4.0'],
    direction: 'inbound',
    llmModel: 'gpt-4o-mini',
    voice: 'elevenlabs:rachel',
    tools: [
      {
        name: 'lookup_order',
        arguments: { order_id: 'A-10293' },
        result: { status: 'shipped', eta_days: 2 },
        fails: 0.08,
        error: 'orders service timed out after 3000 ms',
      },
      {
        name: 'create_ticket',
        arguments: { category: 'damaged_item' },
        result: { ticket_id: 'T-88412', queued: true },
        fails: 0.04,
        error: 'ticketing API answered 503',
      },
    ],
    workflow: ['greeting', 'identify_customer', 'diagnose', 'resolve', 'wrap_up'],
    exchanges: [
      ['Hi, I am calling about my order, it has not arrived yet.', 'I can help with that. Could you give me your order number?'],
      ["It's A one zero two nine three.", 'Thanks. Your order shipped yesterday and should arrive within two days.'],
      ['The box I got last week was damaged though.', "I'm sorry about that. I've opened a ticket and a replacement will be sent."],
      ['Okay, thank you.', 'You are welcome. Is there anything else I can do for you today?'],
      ['No, that is all.', 'Thanks for calling, have a great day.'],
    ],
    outcome: { type: 'resolved', value: 'order_status', revenueUsd: null },
  },
  {
    id: 'sales-agent',
    versions: ['1.7.2', '1.8.0'],
    direction: 'outbound',
    llmModel: 'claude-3-5-haiku',
    voice: 'cartesia:sonic-english',
    tools: [
      { name: 'check_availability', arguments: { week: 'next' }, result: { slots: 4 }, fails: 0.05, error: 'calendar API rate limited' },
      {
        name: 'book_demo',
        arguments: { slot: 'tue-10:00' },
        result: { booking_id: 'B-5521', confirmed: true },
        fails: 0.1,
        error: 'CRM rejected the lead: missing email',
      },
    ],
    workflow: ['intro', 'qualify', 'pitch', 'handle_objection', 'close'],
    exchanges: [
      ['Hello, who is this?', 'Hi, this is Ava from Northwind. You asked about our scheduling software, is now a good time?'],
      ['Sure, I have a few minutes.', 'Great. How many people on your team book appointments each week?'],
      ['About twenty of us.', 'Teams your size usually save around six hours a week. Would a short demo next week help?'],
      ['What does it cost?', 'Plans start at forty nine dollars per seat per month, with a free trial.'],
      ['Okay, let us book the demo.', 'Done. You will get a calendar invite in a minute.'],
    ],
    outcome: { type: 'sale', value: 'annual_plan', revenueUsd: [490, 11_760] },
  },
  {
    id: 'billing-agent',
    versions: ['3.0.2'],
    direction: 'inbound',
    llmModel: 'gpt-4o',
    voice: 'openai:alloy',
    tools: [
      {
        name: 'get_invoice',
        arguments: { month: '2026-02' },
        result: { amount_usd: 129.5, paid: false },
        fails: 0.05,
        error: 'billing database connection reset',
      },
      {
        name: 'process_refund',
        arguments: { amount_usd: '29.00' },
        result: { refund_id: 'R-2231', status: 'pending' },
        fails: 0.12,
        error: 'payment processor declined: card expired',
      },
    ],
    workflow: ['greeting', 'verify_identity', 'explain_charges', 'refund', 'wrap_up'],
    exchanges: [
      ['I was charged twice this month.', 'Let me look into that. Can you confirm the last four digits of the card?'],
      ['Four four two one.', 'Thank you. I see two charges of twenty nine dollars on February third.'],
      ['Yes, that is the problem.', "I've started a refund for the duplicate charge."],
      ['How long will it take?', 'Refunds usually appear within five business days.'],
    ],
    outcome: { type: 'refund_issued', value: 'duplicate_charge', revenueUsd: [-29, -29] },
  },
  {
    id: 'appointments-agent',
    versions: ['1.2.0', '1.3.0-beta'],
    direction: 'inbound',
    llmModel: 'llama-3.1-70b',
    voice: 'deepgram:aura-asteria',
    tools: [
      { name: 'find_slot', arguments: { service: 'cleaning' }, result: { first_free: 'thu-14:30' }, fails: 0.06, error: 'scheduler returned malformed JSON' },
      { name: 'book_appointment', arguments: { slot: 'thu-14:30' }, result: { appointment_id: 'AP-7781' }, fails: 0.05, error: 'slot was taken meanwhile' },
    ],
    workflow: ['greeting', 'collect_details', 'offer_slots', 'confirm'],
    exchanges: [
      ['I need to book a cleaning appointment.', 'Sure. Do you prefer mornings or afternoons?'],
      ['Afternoons, later this week.', 'The first free slot is Thursday at two thirty. Does that work?'],
      ['Yes, Thursday works.', "You're booked for Thursday at two thirty. We'll text you a reminder."],
    ],
    outcome: { type: 'appointment_booked', value: 'cleaning', revenueUsd: [80, 180] },
  },
];

/** Providers as they name themselves in X-Earshot-Provider, with how much of the traffic each sends. */
export const DEMO_PROVIDERS: readonly (readonly [string, number])[] = [
  ['vapi', 4],
  ['retell', 3],
  ['twilio', 1],
  ['livekit', 2],
  ['pipecat', 1],
];
