"""Scoring inside training loops (RL fine-tuning rewards): metrics on token-id tensors and the like."""
