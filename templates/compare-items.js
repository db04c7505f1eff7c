/* The public items and their verdict patterns for its suite's compare page (static/compare.js), written by the site build. */
window.TALLY_COMPARE_ITEMS = {{ items|json_block }};
