export { ACCEPTED_STATUS, Intake, type DeliveryNote, type EnvelopeInput, type EnvelopeOutcome, type EnvelopeResult, type Sender } from './intake';
export { batchInputs } from './array-items';
