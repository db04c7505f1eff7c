/* One run's data for its suite's compare page (static/compare.js), written by the site build. */
(window.TALLY_COMPARE = window.TALLY_COMPARE || []).push({{ run|json_block }});
