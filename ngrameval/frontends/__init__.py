"""Front ends written against the protocol: the CLI and its report, the evaluate mixin."""
