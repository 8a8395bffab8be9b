"""The releases of the reference tools that several metrics reproduce, as their signatures name them."""

# sacrebleu's BLEU, chrF and TER.
SACREBLEU_VERSION = "2.6.0"
# NLTK's BLEU, NIST, chrF and GLEU (and METEOR, with WordNet).
NLTK_VERSION = "3.10.4"
