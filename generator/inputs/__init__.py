"""What reads the project's inputs, each checked on the way in (errors name the file and line).

- `config`: the project's settings, `tally.toml`;
- `content`: suites and their items, from content/suites/; `prompts`: a suite's prompt template;
  `page_images`: the page images of an item's document;
- `results`: stored runs, results/<suite>/<run>/;
- `links`: content/ and results/ hold regular files and folders only;
- `stored_files`: opening stored JSON Lines files, plain or gzip; `jsonl`: reading their lines;
- `untrusted_files`: files a person hands us (judgments, labels, worksheets), bounded and strict;
- `ids`, `iso_date`, `money`: identifiers, dates and prices, each read one way.

Suite plugins import `generator.content`, `generator.ids`, `generator.jsonl`, `generator.prompts`,
`generator.page_images`, `generator.iso_date` and `generator.money`: those paths stay, re-exporting
the modules here.
"""
