"""ngrameval in the loops of training and decoding: ids, rewards, pairwise matrices, the torch path."""
