/* The site's search index, written by the site build: [kind, title, more, site path] per entry. */
window.TALLY_SEARCH = {{ entries|json_block }};
