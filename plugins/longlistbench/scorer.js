/*
 * PLACEHOLDER for scorer B of the LongListBench suite: replace this whole file.
 *
 * Scorer B is written from content/pages/scoring-longlistbench.md alone (section 8, "For scorer
 * B's author", names this file and the protocol). Until it is written, this script registers the
 * suite's scorer and fails on every reply, so the agreement gate of this suite fails loudly
 * instead of passing by default.
 */
(function () {
  'use strict';
  var core = globalThis.TallyCore;
  if (!core) throw new Error('longlistbench scorer: load core.js (TallyCore) first');
  var api = {
    placeholder: true,
    scoreItem: function () { throw new Error('scorer B of longlistbench is not written yet'); },
    itemProblems: function () { throw new Error('scorer B of longlistbench is not written yet'); },
  };
  core.register('longlistbench', api);
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
})();
