"""Benchmarks: throughput and strength measurements, runnable as modules."""
