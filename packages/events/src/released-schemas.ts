/**
 * Every released schema file, pinned. A released file never changes: readers
 * find writers by fingerprint, and a data team may hold a copy. A new version
 * is a new file, pinned here when it is released. `fingerprint` is the
 * CRC-64-AVRO of the Parsing Canonical Form (what messages carry); `sha256`
 * covers the whole parsed file, so docs, defaults and logical types are pinned too.
 */
export const RELEASED_SCHEMAS: Readonly<Record<string, { readonly fingerprint: string; readonly sha256: string }>> = {
  'schemas/agent.response.generated/2026-01-01.avsc': {
    fingerprint: '655a6c99fd99731a',
    sha256: '3a5b16126a12a0c633122902ed03c746b92be0c6c8ef99e2b1c9fb66a2b22e7e',
  },
  'schemas/agent.response.generated/2026-11-24.avsc': {
    fingerprint: '29803704180ac291',
    sha256: 'c69e10a6bf3be3df9157c688ec4ce984806b8462fbfb4abeed695e064d3f6394',
  },
  'schemas/alert.fired/2026-01-01.avsc': { fingerprint: '23b8aac4c67e5fac', sha256: '631b292b64c51f223bff35fc6381d903f22c61e2b117ac2208bd7bdd130f342b' },
  'schemas/alert.resolved/2026-01-01.avsc': { fingerprint: 'b0eb704199ee4b36', sha256: '4f2092567428f2f8482addb369939702abb68bb21ac589a0922026fb83567953' },
  'schemas/alert.rule.changed/2026-01-01.avsc': { fingerprint: 'ef32bd312e34890b', sha256: '1c09eb7ff7b8bc1438995c69c6d51668a53c22433b960871aae567bf7f7c5a80' },
  'schemas/audio.stream.started/2026-01-01.avsc': {
    fingerprint: 'b0f437d62c033293',
    sha256: '8a96fa781a6d18cfd2a57aacf1f81116a3156d2869b835c5ff5bd5e4d90bf31f',
  },
  'schemas/audio.stream.stopped/2026-01-01.avsc': {
    fingerprint: 'cbed9710aec14798',
    sha256: '007d62ef828550dcb36e40299ddf64ba75f0233c87365d1162803e42b9c613e0',
  },
  'schemas/billing.plan.changed/2026-01-01.avsc': {
    fingerprint: '67d0eeee4837f50d',
    sha256: '9022744c52da27353043b6e5f7ea6492dafb95d502b9fdc292059847f0bd2265',
  },
  'schemas/call.abandoned/2026-01-01.avsc': { fingerprint: '6ec0a566086f5bb9', sha256: 'b3bd2ef9648823e0fe0475b21b57d145b903a29c407963dd0b9d9c6364cf8985' },
  'schemas/call.answered/2026-01-01.avsc': { fingerprint: '86529c377c40058a', sha256: 'b499cb4201c6b87dde9c8f68b0b1589edc8b48268dffd5a3197708a2ab4727a9' },
  'schemas/call.completed/2026-01-01.avsc': { fingerprint: '0a76327a86d36093', sha256: '7abe0594114e0a74919e5fa6ea0479c2290e53d6599c7c3f3b249daf1afe402d' },
  'schemas/call.ended/2026-01-01.avsc': { fingerprint: '2af68a49d6fea618', sha256: '96cff22a1c2a9a4f442bd18848c71f81a0177f5a0af551d8a3db140465a500c5' },
  'schemas/call.failed/2026-01-01.avsc': { fingerprint: 'b7d73d0f8ee28034', sha256: '693aec7decd06f37d247b53e513216b674ab5a7d96dc064378b00eba3659c3b7' },
  'schemas/call.ringing/2026-01-01.avsc': { fingerprint: '7e891fadf5a836c8', sha256: 'ca9767de30fad4d0d25c5cc3ef3f180b8884f47ed0a68db373a702acf86d4e8b' },
  'schemas/call.started/2026-01-01.avsc': { fingerprint: 'f69408d83f9cb96e', sha256: '641525cd743f7ba4bfa5620cc892165a475501f4274d66013004a078de288d72' },
  'schemas/call.transferred/2026-01-01.avsc': { fingerprint: '2fd8a2fa60e188bd', sha256: '31e12d49e220f6510e91a36d6a08ed99afbda4e4c640a3da316cd67a54e56103' },
  'schemas/customer.feedback.submitted/2026-01-01.avsc': {
    fingerprint: '64698b1922bd943a',
    sha256: 'f8e42633f9d9b5d2437b17a52e7617b3fe38ae6c750a79e644017a723ab4392d',
  },
  'schemas/dead-letter/2026-01-01.avsc': { fingerprint: '7d5f5eae04ebce75', sha256: '9bebcb43394279a67e74bbee5b4e62f8f2cc6ce451c40e2087addd302cae1995' },
  'schemas/dead-letter/2026-11-24.avsc': { fingerprint: 'e7cf9f96615ce6a5', sha256: 'b7c42a0a2a8137e07e85b6033a080f70741c5acdaf429ac8ebe064950c6bf2ad' },
  'schemas/delivery/2026-01-01.avsc': { fingerprint: '63a2e30a42e05599', sha256: 'af896f63d2a26a9de23b3f07a7ac9b1558d519ed622750803dab66464b4fc4e6' },
  'schemas/deployment.recorded/2026-01-01.avsc': {
    fingerprint: '947f858807d32861',
    sha256: 'ffe48eb93b66b06b55bcbfd1c0a667f05a8cfba1fe4006b60b5dca70a34cc8a1',
  },
  'schemas/envelope/2026-01-01.avsc': { fingerprint: 'e7c9086aa70b9295', sha256: '802e2a4e9679bc474e8ab345a48ef4f190b420d3317ad29f2680c924a5ef1b77' },
  'schemas/handoff.completed/2026-01-01.avsc': { fingerprint: '2bcbd15b2fbcd59d', sha256: 'e5e9307e8c71b5e719a55859b0f0fd8a5d1f8c20eebc202346487dc389fd7d95' },
  'schemas/handoff.initiated/2026-01-01.avsc': { fingerprint: 'b90e72b164073af3', sha256: '8c1ba88b6b0ca9de0ac76fd40e6e346e47dba9d3ac48270859d5a59044f0124e' },
  'schemas/incident.created/2026-01-01.avsc': { fingerprint: 'bb39baeb959ca166', sha256: '6a2617ecbb8c5b2b62c53be1d616c9890cab5f79803345e525d99e8d82c4d745' },
  'schemas/incident.created/2026-11-22.avsc': { fingerprint: 'eb52bd30cdc3cefb', sha256: 'ad2bebc6709c6bd40f6fb0b969b65cbb86d71392a926c1d168297bbbf4c3cabe' },
  'schemas/incident.updated/2026-01-01.avsc': { fingerprint: 'e7103bb40943b97d', sha256: '4b8476f0806ea356890762131d0ef3a5c985cfb5b60f3a46772270464d16f1ca' },
  'schemas/incident.updated/2026-11-22.avsc': { fingerprint: 'c12b598cdcb5e119', sha256: 'eab985a86188873ee6754bbb06de0e55b6db5ab7dd67112aa63b76c071c41883' },
  'schemas/invoice.issued/2026-01-01.avsc': { fingerprint: 'fede6cb34f54adf7', sha256: 'dbe4f1fd4412a8f344ddbe8778ca649906e189ab0a3763f80425d30a8c727d2e' },
  'schemas/outcome.recorded/2026-01-01.avsc': { fingerprint: '7bc2910cfabeed99', sha256: 'ea883940c38294ec5e33fe3c37652d4c2aec6f752de9203b1b914aadfcaf2654' },
  'schemas/provider.error.received/2026-01-01.avsc': {
    fingerprint: 'f7a4c8c35b163b40',
    sha256: '35fb1af7c91e564641ac04a72afcf8ed3484aea4cd47b7286c4b838959531f2f',
  },
  'schemas/recording.available/2026-01-01.avsc': {
    fingerprint: 'e90a1cc6aaa56570',
    sha256: '10253eed284f1a73d05c6737aacafe92d28c78a956ee90345c7a3161d938ece1',
  },
  'schemas/tool.call.completed/2026-01-01.avsc': {
    fingerprint: '1278a4a875b218d5',
    sha256: 'd17a404b3129868339b9bfcd850a0e591d59f8310bc23a9a86fce99eb674fce3',
  },
  'schemas/tool.call.failed/2026-01-01.avsc': { fingerprint: '5509efc446896ef2', sha256: 'f0a8d96218ce328a24338aa62bdf9588c7c5b9956cd2b14de8007f60eaaad676' },
  'schemas/tool.call.started/2026-01-01.avsc': { fingerprint: '88a7d24643aad717', sha256: '1524e8d85b492a82c459d3dc313698bcd3120ab987a6df8381c1505d4491267f' },
  'schemas/transcript.final/2026-01-01.avsc': { fingerprint: 'dde99a8cbb854738', sha256: 'e4823f1c4515b30f10d0331092846c49c2cb7039c32f49764c15b38fffb6e00c' },
  'schemas/transcript.partial/2026-01-01.avsc': { fingerprint: '529c2093db37f482', sha256: '65098c2dd58bebd4426fb68a0d9cb9286361410ad442b8b13e74208296a7b427' },
  'schemas/workflow.state.changed/2026-01-01.avsc': {
    fingerprint: '2fbe0d04a763d99c',
    sha256: '2c5fd25f0cbaf0fcbbb3027f46f96c9c2b33bf5fead48c906835ab7e3e69cc46',
  },
};
