"""Text to tokens: the named tokenizers, the PTB tokenizer, the WordNet reader."""
