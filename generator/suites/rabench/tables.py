"""placeholder"""
def report_tables(scored):
    return []
