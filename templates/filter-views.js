/* The views of a suite page's headline table for its filters (static/filters.js), written by the site build. */
window.TALLY_FILTER_VIEWS = {{ filters|json_block }};
