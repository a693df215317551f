"""The federation's rating-API shapes, served from the same data: being built."""
