import Foundation

/// A small `export.xml` in the Health app's format: two step counts and a heart rate on the
/// first day, weigh-ins in kg and lb, a run, and a strength workout whose energy is in its
/// statistics. Times are hours after `start`, written in UTC.
func writeHealthExport(to path: String, start: Date) throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = .gmt
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    func at(_ hours: Double) -> String {
        formatter.string(from: start.addingTimeInterval(hours * 3600))
    }
    let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="\(at(72))"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" sourceVersion="17.5" device="&lt;&lt;HKDevice: 0x0&gt;, name:iPhone&gt;" unit="count" creationDate="\(at(2))" startDate="\(at(1))" endDate="\(at(1.5))" value="3000"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" sourceVersion="17.5" unit="count" creationDate="\(at(5))" startDate="\(at(4))" endDate="\(at(4.5))" value="2500"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" sourceVersion="1" unit="kg" creationDate="\(at(0.2))" startDate="\(at(0.1))" endDate="\(at(0.1))" value="70.3"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" sourceVersion="1" unit="lb" creationDate="\(at(24.2))" startDate="\(at(24.1))" endDate="\(at(24.1))" value="154"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" creationDate="\(at(3))" startDate="\(at(3))" endDate="\(at(3))" value="72"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="32.5" durationUnit="min" totalDistance="5.1" totalDistanceUnit="km" totalEnergyBurned="310" totalEnergyBurnedUnit="kcal" sourceName="Anna’s Apple Watch" sourceVersion="10.5" creationDate="\(at(7))" startDate="\(at(6))" endDate="\(at(6.54))">
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
         </Workout>
         <Workout workoutActivityType="HKWorkoutActivityTypeTraditionalStrengthTraining" duration="45" durationUnit="min" sourceName="Anna’s Apple Watch" sourceVersion="10.5" creationDate="\(at(31))" startDate="\(at(30))" endDate="\(at(30.75))">
          <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="\(at(30))" endDate="\(at(30.75))" sum="220" unit="kcal"/>
         </Workout>
        </HealthData>
        """
    try xml.write(toFile: path, atomically: true, encoding: .utf8)
}
