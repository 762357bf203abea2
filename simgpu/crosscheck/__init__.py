"""crosscheck"""
