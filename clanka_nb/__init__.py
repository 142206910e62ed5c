"""clanka-nb: see, measure and tune how clanka's CodeChunker cuts code into chunks."""
